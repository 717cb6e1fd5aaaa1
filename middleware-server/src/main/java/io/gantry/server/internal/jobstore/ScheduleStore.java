package io.gantry.server.internal.jobstore;

import io.gantry.server.internal.jobstore.jdbc.JobRows;
import io.gantry.server.internal.jobstore.jdbc.OriginRows.ParameterRows;
import io.gantry.server.internal.jobstore.jdbc.Owners;
import io.gantry.server.internal.jobstore.jdbc.Transactor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The schedules in the job store (tables {@code gantry_schedule}, {@code
 * gantry_schedule_parameter}). A firing first claims its scheduled time ({@link #claim}), so that a
 * time runs at most once even when two servers share the store or the server stops between the
 * claim and the submission.
 */
public final class ScheduleStore {
  private static final String COLUMNS =
      "id, owner, name, cron, time_zone, missed, paused, created_at, last_time, last_job_id,"
          + " last_note, jsdl_xml, calendar";

  /** As {@link #COLUMNS}, the owner as {@link Owners} says: bound to the owner's user id. */
  private static final String SELECTED =
      COLUMNS.replace("owner,", Owners.presented("gantry_schedule") + " AS owner,");

  private static final int NOTE_LIMIT = 4000;

  private final Transactor tx;
  private final Clock clock;

  ScheduleStore(Transactor tx, Clock clock) {
    this.tx = tx;
    this.clock = clock;
  }

  /** Adds a schedule; false when its owner already has one of that name. */
  public boolean add(Schedule s) {
    return tx.write(
        "add schedule " + s.name() + " of " + s.owner(),
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("SELECT 1 FROM gantry_schedule WHERE owner = ? AND name = ?")) {
            ps.setString(1, s.owner());
            ps.setString(2, s.name());
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                return false;
              }
            }
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO gantry_schedule ("
                      + COLUMNS
                      + ", owner_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                      + Owners.ID_OF_NAMED
                      + ")")) {
            ps.setString(1, s.id());
            ps.setString(2, s.owner());
            ps.setString(3, s.name());
            ps.setString(4, s.cron());
            ps.setString(5, s.timeZone());
            ps.setString(6, s.missed().name());
            ps.setBoolean(7, s.paused());
            JobRows.setInstant(ps, 8, s.createdAt());
            setInstantOrNull(ps, 9, s.lastTime());
            ps.setString(10, s.lastJobId());
            ps.setString(11, s.lastNote());
            ps.setString(12, s.jobDescription());
            ps.setString(13, s.calendar());
            ps.setString(14, s.owner());
            ps.executeUpdate();
          }
          ParameterRows.insert(
              c, "gantry_schedule_parameter", "schedule_id", s.id(), s.parameters());
          return true;
        });
  }

  public Optional<Schedule> find(String id) {
    return tx.read(
        "read schedule " + id,
        c -> {
          List<Schedule> found = select(c, "WHERE id = ?", id);
          return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        });
  }

  /** The owner's schedules by name, or every schedule (owner, name) for a null owner. */
  public List<Schedule> list(String owner) {
    return tx.read(
        "list schedules",
        c ->
            owner == null
                ? select(c, "ORDER BY owner, name")
                : select(
                    c,
                    "WHERE " + Owners.ownedByNamed("gantry_schedule") + " ORDER BY name",
                    owner,
                    owner));
  }

  /**
   * Pauses or resumes. A resumed schedule counts from {@code now}: times passed while it was paused
   * do not run. False when there is no such schedule.
   */
  public boolean setPaused(String id, boolean paused, Instant now) {
    return tx.write(
        "pause or resume schedule " + id,
        c -> {
          String sql =
              paused
                  ? "UPDATE gantry_schedule SET paused = TRUE WHERE id = ?"
                  : "UPDATE gantry_schedule SET paused = FALSE, last_time = ?,"
                      + " last_note = 'resumed' WHERE id = ? AND paused = TRUE";
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (paused) {
              ps.setString(1, id);
            } else {
              JobRows.setInstant(ps, 1, now);
              ps.setString(2, id);
            }
            ps.executeUpdate();
          }
          return exists(c, id);
        });
  }

  public boolean remove(String id) {
    return tx.write(
        "remove schedule " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM gantry_schedule WHERE id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /**
   * Removes every schedule of the user with this id, in the caller's transaction: a removed user's
   * schedules go with the user, so none fires for a later user of that name.
   */
  static int removeAllOf(Connection c, String userId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM gantry_schedule WHERE owner_id = ?")) {
      ps.setString(1, userId);
      return ps.executeUpdate();
    }
  }

  /**
   * Times of a schedule that came while the server was down, found at its start: the claim of the
   * latest writes an {@code io.gantry.schedule.missed} event, and with {@code skip} (missed-runs
   * skip) an {@code io.gantry.schedule.skipped} one, in its own transaction.
   *
   * @param count how many times were missed ({@link Integer#MAX_VALUE}: more than were counted)
   */
  public record Missed(int count, boolean skip) {}

  /**
   * Claims a scheduled time for one firing: true exactly once per schedule and time, and only while
   * the schedule is active and the time is later than the last one dealt with.
   */
  public boolean claim(String id, Instant time, String note) {
    return claim(id, time, note, null);
  }

  /**
   * As {@link #claim(String, Instant, String)}; {@code missed}, when not null, says the time was
   * missed while the server was down, and its events commit with the claim.
   */
  public boolean claim(String id, Instant time, String note, Missed missed) {
    return tx.write(
        "claim a time of schedule " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE gantry_schedule SET last_time = ?, last_job_id = NULL, last_note = ?"
                      + " WHERE id = ? AND paused = FALSE"
                      + " AND (last_time IS NULL OR last_time < ?)"
                      // never for a user removed meanwhile, nor for a later user of the name
                      + " AND "
                      + Owners.ownerExists("gantry_schedule"))) {
            JobRows.setInstant(ps, 1, time);
            ps.setString(2, abbreviate(note));
            ps.setString(3, id);
            JobRows.setInstant(ps, 4, time);
            if (ps.executeUpdate() != 1) {
              return false;
            }
          }
          if (missed != null) {
            JsonObject data =
                ScheduleEvents.data(c, id, time)
                    .putJson(
                        "missed",
                        missed.count() == Integer.MAX_VALUE
                            ? "null"
                            : Integer.toString(missed.count()))
                    .put("missedRuns", missed.skip() ? "skip" : "run-once");
            ScheduleEvents.write(c, ScheduleEvents.MISSED, id, data, clock);
            if (missed.skip()) {
              ScheduleEvents.write(
                  c,
                  ScheduleEvents.SKIPPED,
                  id,
                  ScheduleEvents.data(c, id, time).put("reason", ScheduleEvents.clip(note)),
                  clock);
            }
          }
          return true;
        });
  }

  /**
   * What came of a claimed time: the job submitted ({@code io.gantry.schedule.fired}), or why none
   * was ({@code io.gantry.schedule.skipped}); the event commits with the record.
   */
  public void recordOutcome(String id, Instant time, String jobId, String note) {
    tx.write(
        "record the outcome of schedule " + id,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE gantry_schedule SET last_job_id = ?, last_note = ?"
                      + " WHERE id = ? AND last_time = ?")) {
            ps.setString(1, jobId);
            ps.setString(2, abbreviate(note));
            ps.setString(3, id);
            JobRows.setInstant(ps, 4, time);
            if (ps.executeUpdate() != 1) {
              return null; // removed meanwhile, or a later time claimed: nothing to report
            }
          }
          JsonObject data = ScheduleEvents.data(c, id, time);
          if (jobId != null) {
            ScheduleEvents.write(
                c,
                ScheduleEvents.FIRED,
                id,
                data.put("jobId", jobId).put("note", ScheduleEvents.clip(note)),
                clock);
          } else {
            ScheduleEvents.write(
                c,
                ScheduleEvents.SKIPPED,
                id,
                data.put("reason", ScheduleEvents.clip(note)),
                clock);
          }
          return null;
        });
  }

  /**
   * The job a schedule submitted for {@code time}, if one is stored: after a server stopped between
   * a claim and its outcome, it tells a submission that happened from one that never did.
   */
  public Optional<String> jobScheduledFor(String id, Instant time) {
    return tx.read(
        "find the job of schedule " + id + " for " + time,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT job_id FROM gantry_job_origin WHERE schedule_id = ? AND scheduled_for = ?"
                      + " ORDER BY job_id")) {
            ps.setString(1, id);
            JobRows.setInstant(ps, 2, time);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
            }
          }
        });
  }

  private static boolean exists(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM gantry_schedule WHERE id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static List<Schedule> select(Connection c, String where, String... args)
      throws SQLException {
    List<Schedule> found = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + SELECTED + " FROM gantry_schedule " + where)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.add(
              new Schedule(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  Schedule.MissedRuns.valueOf(rs.getString(6)),
                  rs.getBoolean(7),
                  instant(rs, 8),
                  instant(rs, 9),
                  rs.getString(10),
                  rs.getString(11),
                  rs.getString(12),
                  java.util.Map.of(),
                  rs.getString(13)));
        }
      }
    }
    List<Schedule> withValues = new ArrayList<>();
    for (Schedule s : found) {
      withValues.add(
          new Schedule(
              s.id(),
              s.owner(),
              s.name(),
              s.cron(),
              s.timeZone(),
              s.missed(),
              s.paused(),
              s.createdAt(),
              s.lastTime(),
              s.lastJobId(),
              s.lastNote(),
              s.jobDescription(),
              ParameterRows.read(c, "gantry_schedule_parameter", "schedule_id", s.id()),
              s.calendar()));
    }
    return withValues;
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  private static void setInstantOrNull(PreparedStatement ps, int index, Instant value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      JobRows.setInstant(ps, index, value);
    }
  }

  private static String abbreviate(String note) {
    return note == null || note.length() <= NOTE_LIMIT ? note : note.substring(0, NOTE_LIMIT);
  }
}
