package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.OutboxRows;
import io.gantry.server.internal.jobstore.jdbc.Owners;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The outbox events of a schedule (docs/operations.md, "Events"), written in the transaction of the
 * schedule's own bookkeeping ({@link ScheduleStore#claim}, {@link ScheduleStore#recordOutcome}), so
 * that none is lost or invented by a crash. The subject is the schedule's id; the owner is the
 * schedule's, whose subscriptions receive them.
 */
final class ScheduleEvents {
  /** A time came and its job was submitted. */
  static final String FIRED = "io.gantry.schedule.fired";

  /** Times came while the server was down (found at its start). */
  static final String MISSED = "io.gantry.schedule.missed";

  /** A time came and no job was submitted for it (missed-runs skip, or the submission refused). */
  static final String SKIPPED = "io.gantry.schedule.skipped";

  /** Reasons are cut to this many characters, as a job event's are. */
  private static final int REASON_LIMIT = 1000;

  private ScheduleEvents() {}

  /** The facts every schedule event carries: the schedule, its owner and the scheduled time. */
  static JsonObject data(Connection c, String scheduleId, Instant time) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT name, "
                + Owners.presented("gantry_schedule")
                + " FROM gantry_schedule WHERE id = ?")) {
      ps.setString(1, scheduleId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("schedule " + scheduleId + " is gone");
        }
        return new JsonObject()
            .put("scheduleId", scheduleId)
            .put("schedule", rs.getString(1))
            .put("owner", rs.getString(2))
            .put("time", time.toString());
      }
    }
  }

  static void write(Connection c, String type, String scheduleId, JsonObject data, Clock clock)
      throws SQLException {
    String owner = ownerOf(c, scheduleId);
    OutboxRows.insert(
        c,
        type,
        scheduleId,
        owner,
        clock.instant().truncatedTo(ChronoUnit.MICROS),
        data.toString());
  }

  static String clip(String reason) {
    return reason == null || reason.length() <= REASON_LIMIT
        ? reason
        : reason.substring(0, REASON_LIMIT - 3) + "...";
  }

  private static String ownerOf(Connection c, String scheduleId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + Owners.presented("gantry_schedule")
                + " FROM gantry_schedule WHERE id = ?")) {
      ps.setString(1, scheduleId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
