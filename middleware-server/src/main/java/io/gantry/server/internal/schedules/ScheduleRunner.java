package io.gantry.server.internal.schedules;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.internal.faults.FaultPoint;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.Schedule;
import io.gantry.server.internal.jobstore.ScheduleStore;
import io.gantry.server.internal.service.InvalidArgumentException;
import io.gantry.server.internal.service.JobSubmission;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits each active schedule's job when its time has come, on one thread, every check interval.
 *
 * <ol>
 *   <li>The first check after start deals with the times missed while the server was down, as each
 *       schedule says: one job for the latest of them (run-once), or none (skip).
 *   <li>Later checks submit one job for the latest time that has come; several times coming between
 *       two checks (a suspended machine, a moved clock) run once.
 *   <li>Each time is claimed in the store before the job is submitted, so it never runs twice; a
 *       submission that fails leaves the reason on the schedule ({@code lastNote}).
 *   <li>A claim the server stopped in the middle of (its note still {@value #SUBMITTING}) is
 *       settled by the first check after start: with the job the schedule submitted for that time,
 *       found by the job's origin, or, when none was stored, with a note saying that no job ran for
 *       it. The time is not tried again: a schedule's time runs at most once.
 *   <li>A schedule with a holiday calendar runs only at times whose date the calendar does not
 *       hold; a time that came on a holiday is claimed with a note saying so ({@code lastNote} and
 *       the server log), so that whoever looks at the schedule sees why nothing ran. A calendar
 *       that cannot be read (and never could be) runs nothing either, with the reason as the note.
 * </ol>
 */
public final class ScheduleRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ScheduleRunner.class);

  /** The note of a claimed time whose job is being submitted. */
  static final String SUBMITTING = "submitting";

  private final ScheduleStore store;
  private final JobSubmission submission;
  private final Clock clock;
  private final Duration interval;
  private final Predicate<String> ownerExists;
  private final HolidayCalendars calendars;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-schedules");
            t.setDaemon(true);
            return t;
          });
  private boolean started;

  /**
   * @param clock the schedules' clock (the system's, or a test's)
   * @param ownerExists whether a user still exists: a removed user's schedules submit nothing
   * @param calendars the holiday calendars schedules name
   */
  public ScheduleRunner(
      ScheduleStore store,
      JobSubmission submission,
      Clock clock,
      Duration interval,
      Predicate<String> ownerExists,
      HolidayCalendars calendars) {
    this.store = store;
    this.submission = submission;
    this.clock = clock;
    this.interval = interval;
    this.ownerExists = ownerExists;
    this.calendars = calendars;
  }

  public void start() {
    // check() catches what it can recover from; the future would only hold a cancellation
    var unused =
        thread.scheduleWithFixedDelay(this::check, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void check() {
    boolean atStart = !started;
    started = true;
    try {
      Instant now = clock.instant();
      for (Schedule s : store.list(null)) {
        if (atStart && SUBMITTING.equals(s.lastNote()) && s.lastTime() != null) {
          settleInterrupted(s);
        }
        if (!s.paused()) {
          checkOne(s, now, atStart);
        }
      }
    } catch (RuntimeException e) {
      // the store failing, a clock file unreadable: the next check tries again
      log.warn("schedules not checked: {}", e.toString());
    }
  }

  private void checkOne(Schedule s, Instant now, boolean atStart) {
    CronSchedule cron;
    try {
      cron = CronSchedule.of(s.cron(), s.timeZone());
    } catch (InvalidArgumentException e) {
      log.warn("schedule {} of {}: {}", s.name(), s.owner(), e.getMessage());
      return;
    }
    Optional<Holidays> holidays = holidays(s, cron, now);
    if (holidays.isEmpty()) {
      return;
    }
    ScheduleTimes times = new ScheduleTimes(cron, holidays.get());
    Optional<CronSchedule.Due> due = times.due(s.countFrom(), now);
    if (due.isEmpty()) {
      times
          .holidayPassed(s.countFrom(), now)
          .ifPresent(time -> skipHoliday(s, times, time, holidays.get()));
      return;
    }
    Instant time = due.get().latest();
    boolean skip = s.missed() == Schedule.MissedRuns.SKIP;
    // at start, the times that came were missed while the server was down: the claim says so
    ScheduleStore.Missed missed =
        atStart
            ? new ScheduleStore.Missed(
                due.get().count() >= CronSchedule.COUNT_LIMIT
                    ? Integer.MAX_VALUE
                    : due.get().count(),
                skip)
            : null;
    if (atStart && skip) {
      if (store.claim(s.id(), time, skipped(due.get()), missed)) {
        log.info("schedule {} of {}: {}", s.name(), s.owner(), skipped(due.get()));
      }
      return;
    }
    if (!store.claim(s.id(), time, SUBMITTING, missed)) {
      return; // paused, removed or run meanwhile
    }
    FaultPoint.SCHEDULE_CLAIMED.reached();
    fire(s, cron, time, due.get().count());
  }

  /**
   * A time claimed by a server that stopped before it recorded the outcome: the job is stored when
   * the submission committed (its origin names the schedule and the time), and then the claim is
   * made to name it; otherwise no job exists and none is submitted now (at most once), and the note
   * says why.
   */
  private void settleInterrupted(Schedule s) {
    Instant time = s.lastTime();
    Optional<String> job = store.jobScheduledFor(s.id(), time);
    String note =
        job.isPresent()
            ? "submitted; the server stopped before it recorded the job, and found it at restart"
            : "not submitted: the server stopped while submitting it; not retried (a scheduled"
                + " time runs at most once)";
    store.recordOutcome(s.id(), time, job.orElse(null), note);
    log.warn(
        "schedule {} of {}: the time {} was claimed when the server stopped: {}",
        s.name(),
        s.owner(),
        time,
        job.map(id -> "job " + id + " " + note).orElse(note));
  }

  /**
   * The schedule's calendar as it is now: {@link Holidays#NONE} without one; empty when it cannot
   * be read, after the time that came has been claimed with the reason (nothing runs: a date the
   * calendar may hold is never taken for a working date).
   */
  private Optional<Holidays> holidays(Schedule s, CronSchedule cron, Instant now) {
    if (s.calendar() == null) {
      return Optional.of(Holidays.NONE);
    }
    String why;
    try {
      if (calendars.has(s.calendar())) {
        return Optional.of(calendars.get(s.calendar()));
      }
      why = "holiday calendar " + s.calendar() + " is no longer in the server's settings";
    } catch (CalendarUnavailableException e) {
      why = e.getMessage();
    }
    Optional<CronSchedule.Due> due = cron.due(s.countFrom(), now);
    if (due.isPresent() && store.claim(s.id(), due.get().latest(), "not submitted: " + why)) {
      log.warn(
          "schedule {} of {}: no job for {}: {}", s.name(), s.owner(), due.get().latest(), why);
    }
    return Optional.empty();
  }

  /** A time that came on a holiday: claimed, so it is dealt with, and noted; no job. */
  private void skipHoliday(Schedule s, ScheduleTimes times, Instant time, Holidays holidays) {
    String note =
        "skipped: "
            + times.date(time)
            + " is a holiday in calendar "
            + holidays.name()
            + " (the time was "
            + time
            + ")";
    if (store.claim(s.id(), time, note)) {
      log.info("schedule {} of {}: {}", s.name(), s.owner(), note);
    }
  }

  private static String skipped(CronSchedule.Due due) {
    return "skipped "
        + (due.count() >= CronSchedule.COUNT_LIMIT ? "many" : due.count())
        + " time(s) missed while the server was down, the latest "
        + due.latest();
  }

  private void fire(Schedule s, CronSchedule times, Instant time, int count) {
    String note = count > 1 ? "ran once for " + count + " times that had come" : null;
    if (!ownerExists.test(s.owner())) {
      store.recordOutcome(
          s.id(), time, null, "not submitted: user " + s.owner() + " no longer exists");
      return;
    }
    try {
      Map<String, String> values =
          ScheduleVariables.fill(s.parameters(), time, times.zone(), s.name());
      String jobId =
          submission.submitScheduled(
              s.owner(),
              s.jobDescription(),
              values,
              new JobOrigin(Map.of(), null, s.id(), s.name(), time));
      FaultPoint.SCHEDULE_SUBMITTED.reached();
      store.recordOutcome(s.id(), time, jobId, note);
      log.info("schedule {} of {}: job {} submitted for {}", s.name(), s.owner(), jobId, time);
    } catch (InvalidJobFault e) {
      String problems =
          e.getFaultInfo().problems.stream()
              .filter(p -> "ERROR".equals(p.severity))
              .limit(3)
              .map(p -> p.message)
              .collect(Collectors.joining("; "));
      refused(s, time, "the job is invalid now: " + problems);
    } catch (LimitExceededFault | InvalidArgumentException e) {
      refused(s, time, e.getMessage());
    } catch (RuntimeException e) {
      log.warn("schedule {} of {}: job for {} not submitted", s.name(), s.owner(), time, e);
      refused(s, time, "the server could not submit it: " + e.getMessage());
    }
  }

  private void refused(Schedule s, Instant time, String why) {
    log.warn("schedule {} of {}: no job for {}: {}", s.name(), s.owner(), time, why);
    store.recordOutcome(s.id(), time, null, "not submitted: " + why);
  }

  @Override
  public void close() throws InterruptedException {
    thread.shutdownNow();
    thread.awaitTermination(10, TimeUnit.SECONDS);
  }
}
