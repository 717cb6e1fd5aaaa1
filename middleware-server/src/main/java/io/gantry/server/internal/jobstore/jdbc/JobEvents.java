package io.gantry.server.internal.jobstore.jdbc;

import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JsonObject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The outbox events a job's changes produce (docs/operations.md, "Events"), written in the
 * transaction of the change:
 *
 * <ol>
 *   <li>{@code io.gantry.job.state-changed} for every change, the submission included;
 *   <li>{@code io.gantry.job.failed} besides, when the job failed, with its reason;
 *   <li>{@code io.gantry.job.stage-in-finished} and {@code io.gantry.job.stage-out-finished} when a
 *       staging phase recorded what it moved, with rows and bytes.
 * </ol>
 */
public final class JobEvents {
  public static final String STATE_CHANGED = "io.gantry.job.state-changed";
  public static final String FAILED = "io.gantry.job.failed";

  /**
   * Reasons are cut to this many characters in events: escaped as JSON (up to six characters each)
   * they still fit the outbox's data column, so an event never stops the change it reports.
   */
  private static final int REASON_LIMIT = 1000;

  private JobEvents() {}

  private static String clip(String reason) {
    return reason == null || reason.length() <= REASON_LIMIT
        ? reason
        : reason.substring(0, REASON_LIMIT - 3) + "...";
  }

  /** The events of {@code job} having moved from {@code from} (null: submitted) to its state. */
  public static void stateChanged(
      Connection c, JobRecord job, JobState from, String reason, Integer exitCode, Instant at)
      throws SQLException {
    JsonObject data =
        new JsonObject()
            .put("jobId", job.id().value())
            .put("name", job.name())
            .put("owner", job.owner())
            .put("from", from == null ? null : from.name())
            .put("to", job.state().name())
            .put("reason", clip(reason));
    if (exitCode != null) {
      data.put("exitCode", exitCode);
    }
    String subject = job.id().value();
    OutboxRows.insert(c, STATE_CHANGED, subject, job.owner(), at, data.toString());
    if (job.state() == JobState.FAILED) {
      JsonObject failed =
          new JsonObject()
              .put("jobId", subject)
              .put("name", job.name())
              .put("owner", job.owner())
              .put("failedIn", from == null ? null : from.name())
              .put("reason", clip(reason));
      OutboxRows.insert(c, FAILED, subject, job.owner(), at, failed.toString());
    }
  }

  /** The event of a staging phase ({@link DataMovement#STAGE_IN} or _OUT) having finished. */
  public static void stagingFinished(
      Connection c, JobRecord job, String phase, List<DataMovement> movements, Instant at)
      throws SQLException {
    long rows = 0;
    long bytes = 0;
    double seconds = 0;
    for (DataMovement m : movements) {
      rows += m.rows();
      bytes += m.bytes();
      seconds += m.seconds();
    }
    String type =
        DataMovement.STAGE_IN.equals(phase)
            ? "io.gantry.job.stage-in-finished"
            : "io.gantry.job.stage-out-finished";
    JsonObject data =
        new JsonObject()
            .put("jobId", job.id().value())
            .put("name", job.name())
            .put("owner", job.owner())
            .put("steps", movements.size())
            .put("rows", rows)
            .put("bytes", bytes)
            .putJson("seconds", String.format(java.util.Locale.ROOT, "%.3f", seconds));
    OutboxRows.insert(c, type, job.id().value(), job.owner(), at, data.toString());
  }
}
