package io.gantry.server.internal.jobstore;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A schedule as stored: a job template its owner wants submitted at every time of a cron
 * expression.
 *
 * @param id 32 characters, like a job id
 * @param owner the user the jobs are submitted as
 * @param name unique among the owner's schedules
 * @param cron a Unix cron expression (minute hour day-of-month month day-of-week)
 * @param timeZone the zone the expression is read in (an IANA id such as Europe/London)
 * @param missed what to do at start with times missed while the server was down
 * @param paused whether it submits nothing for now
 * @param createdAt when it was added: times before it never run
 * @param lastTime the last scheduled time dealt with (run or skipped), or null
 * @param lastJobId the job submitted for {@code lastTime}, or null
 * @param lastNote what happened at {@code lastTime} when no job was submitted (skipped, refused)
 * @param jobDescription the job template as submitted
 * @param parameters values for the template, which may refer to the scheduled time
 * @param calendar the holiday calendar whose dates it skips ({@code calendar.NAME.*}), or null
 */
public record Schedule(
    String id,
    String owner,
    String name,
    String cron,
    String timeZone,
    MissedRuns missed,
    boolean paused,
    Instant createdAt,
    Instant lastTime,
    String lastJobId,
    String lastNote,
    String jobDescription,
    Map<String, String> parameters,
    String calendar) {

  /** What a schedule does with times missed while the server was down. */
  public enum MissedRuns {
    /** Submit one job at start, for the latest time missed. */
    RUN_ONCE,
    /** Submit nothing for them; wait for the next time. */
    SKIP
  }

  public Schedule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cron, "cron");
    Objects.requireNonNull(timeZone, "timeZone");
    Objects.requireNonNull(missed, "missed");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(jobDescription, "jobDescription");
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }

  /** A schedule without a holiday calendar. */
  public Schedule(
      String id,
      String owner,
      String name,
      String cron,
      String timeZone,
      MissedRuns missed,
      boolean paused,
      Instant createdAt,
      Instant lastTime,
      String lastJobId,
      String lastNote,
      String jobDescription,
      Map<String, String> parameters) {
    this(
        id,
        owner,
        name,
        cron,
        timeZone,
        missed,
        paused,
        createdAt,
        lastTime,
        lastJobId,
        lastNote,
        jobDescription,
        parameters,
        null);
  }

  /** Where counting the next time starts: the last time dealt with, else the creation. */
  public Instant countFrom() {
    return lastTime != null ? lastTime : createdAt;
  }
}
