package io.gantry.server.internal.schedules;

import io.gantry.jsdl.HardenedXml;
import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.MissedRunsName;
import io.gantry.server.api.ScheduleInfo;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.Schedule;
import io.gantry.server.internal.jobstore.ScheduleStore;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import io.gantry.server.internal.service.JobSubmission;
import io.gantry.server.internal.service.TemplateValues;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

/**
 * The schedule operations of the SOAP API: every user adds, lists, pauses, resumes and removes
 * their own schedules; an administrator sees and acts on every user's. A schedule is found by its
 * id or by the name the caller gave one of their own.
 */
public final class ScheduleBook {
  private static final String NAME_SYNTAX = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}";

  private final ScheduleStore store;
  private final JobSubmission submission;
  private final Clock clock;
  private final HolidayCalendars calendars;

  /**
   * @param clock the schedules' clock: what "now" is for the next time of a new or resumed one
   * @param calendars the holiday calendars a schedule may name
   */
  public ScheduleBook(
      ScheduleStore store, JobSubmission submission, Clock clock, HolidayCalendars calendars) {
    this.store = store;
    this.submission = submission;
    this.clock = clock;
    this.calendars = calendars;
  }

  public ScheduleInfo add(
      Caller caller,
      String name,
      String cron,
      String timeZone,
      MissedRunsName missed,
      JobDocument document,
      String calendar)
      throws InvalidJobFault {
    if (name == null || !name.strip().matches(NAME_SYNTAX)) {
      throw new InvalidArgumentException(
          "name", "1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    CronSchedule cronTimes = CronSchedule.of(cron, timeZone);
    String calendarName = calendar == null || calendar.isBlank() ? null : calendar.strip();
    ScheduleTimes times = new ScheduleTimes(cronTimes, holidays(calendarName));
    if (document == null || document.getJobDefinition() == null) {
      throw new InvalidArgumentException("jobDefinition", "the schedule's job is missing");
    }
    Map<String, String> values = TemplateValues.of(document.getParameters());
    String description = text(document);
    Instant now = clock.instant();
    Instant next =
        times
            .next(now)
            .orElseThrow(
                () ->
                    new InvalidArgumentException(
                        "cron",
                        calendarName == null
                            ? "names no future time"
                            : "names no future time outside calendar " + calendarName));
    // checked now as it will run at its next time: a schedule never holds a job it cannot submit
    ValidationResult result =
        submission.validateFor(
            caller.name(),
            description,
            ScheduleVariables.fill(values, next, cronTimes.zone(), name.strip()));
    if (!result.valid) {
      throw new InvalidJobFault("the schedule's job is invalid", result);
    }
    Schedule schedule =
        new Schedule(
            JobId.random().value(),
            caller.name(),
            name.strip(),
            cron.strip(),
            cronTimes.zone().getId(),
            missed == MissedRunsName.SKIP ? Schedule.MissedRuns.SKIP : Schedule.MissedRuns.RUN_ONCE,
            false,
            now,
            null,
            null,
            null,
            description,
            values,
            calendarName);
    if (!store.add(schedule)) {
      throw new InvalidArgumentException(
          "name", "you already have a schedule named " + schedule.name() + "; remove it first");
    }
    return info(schedule);
  }

  public List<ScheduleInfo> list(Caller caller, boolean allUsers) throws AccessDeniedFault {
    if (allUsers && !caller.admin()) {
      String message = "only administrators may list every user's schedules";
      throw new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
    }
    return store.list(allUsers ? null : caller.name()).stream().map(this::info).toList();
  }

  public ScheduleInfo pause(Caller caller, String idOrName) {
    Schedule s = visible(caller, idOrName);
    store.setPaused(s.id(), true, clock.instant());
    return info(store.find(s.id()).orElse(s));
  }

  /**
   * Submits the schedule's job now, as its owner would get it at a time that came now; the
   * schedule's times and its last run are untouched (the job's origin names the schedule).
   */
  public String runNow(Caller caller, String idOrName) throws InvalidJobFault, LimitExceededFault {
    Schedule s = visible(caller, idOrName);
    CronSchedule times = CronSchedule.of(s.cron(), s.timeZone());
    Instant now = clock.instant();
    return submission.submitScheduled(
        s.owner(),
        s.jobDescription(),
        ScheduleVariables.fill(s.parameters(), now, times.zone(), s.name()),
        new JobOrigin(Map.of(), null, s.id(), s.name(), now));
  }

  public ScheduleInfo resume(Caller caller, String idOrName) {
    Schedule s = visible(caller, idOrName);
    store.setPaused(s.id(), false, clock.instant());
    return info(store.find(s.id()).orElse(s));
  }

  public ScheduleInfo remove(Caller caller, String idOrName) {
    Schedule s = visible(caller, idOrName);
    store.remove(s.id());
    ScheduleInfo removed = info(s);
    removed.nextTime = null;
    return removed;
  }

  /** The schedule by id (the caller's or, for an administrator, anyone's) or by own name. */
  private Schedule visible(Caller caller, String idOrName) {
    if (idOrName == null || idOrName.isBlank()) {
      throw new InvalidArgumentException("scheduleId", "missing");
    }
    String key = idOrName.strip();
    Optional<Schedule> byId = store.find(key).filter(s -> caller.mayAccess(s.owner()));
    if (byId.isPresent()) {
      return byId.get();
    }
    return store.list(caller.name()).stream()
        .filter(s -> s.name().equals(key))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidArgumentException(
                    "scheduleId", "no schedule " + key + " for user " + caller.name()));
  }

  public ScheduleInfo info(Schedule s) {
    ScheduleInfo i = new ScheduleInfo();
    i.scheduleId = s.id();
    i.name = s.name();
    i.owner = s.owner();
    i.cron = s.cron();
    i.timeZone = s.timeZone();
    i.missedRuns = MissedRunsName.valueOf(s.missed().name());
    i.paused = s.paused();
    i.created = s.createdAt();
    i.lastTime = s.lastTime();
    i.lastJobId = s.lastJobId();
    i.lastNote = s.lastNote();
    i.parameters = s.parameters().isEmpty() ? null : TemplateValues.toApi(s.parameters());
    i.calendar = s.calendar();
    if (!s.paused()) {
      Instant from = s.countFrom().isAfter(clock.instant()) ? s.countFrom() : clock.instant();
      i.nextTime = nextTime(s, from);
    }
    return i;
  }

  /** The next time after the calendar's holidays; none when the calendar cannot be read now. */
  private Instant nextTime(Schedule s, Instant from) {
    CronSchedule cron = CronSchedule.of(s.cron(), s.timeZone());
    Holidays holidays = Holidays.NONE;
    if (s.calendar() != null) {
      if (!calendars.has(s.calendar())) {
        return null; // removed from the settings since: the runner notes it at the next time
      }
      try {
        holidays = calendars.get(s.calendar());
      } catch (CalendarUnavailableException e) {
        return null;
      }
    }
    return new ScheduleTimes(cron, holidays).next(from).orElse(null);
  }

  /**
   * The dates of the calendar a new schedule names, read now: a schedule never names a calendar
   * that is not there or cannot be read.
   */
  private Holidays holidays(String calendar) {
    if (calendar == null) {
      return Holidays.NONE;
    }
    if (!calendars.has(calendar)) {
      throw new InvalidArgumentException(
          "calendar",
          "no holiday calendar "
              + calendar
              + " on this server"
              + (calendars.names().isEmpty()
                  ? " (it has none)"
                  : "; it has " + String.join(", ", calendars.names())));
    }
    try {
      return calendars.get(calendar);
    } catch (CalendarUnavailableException e) {
      throw new InvalidArgumentException("calendar", e.getMessage() + "; ask an administrator");
    }
  }

  private static String text(JobDocument document) {
    try {
      Transformer identity = HardenedXml.transformerFactory().newTransformer();
      identity.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      identity.setOutputProperty(OutputKeys.INDENT, "no");
      StringWriter out = new StringWriter();
      identity.transform(new DOMSource(document.getJobDefinition()), new StreamResult(out));
      return out.toString();
    } catch (TransformerException e) {
      throw new InvalidArgumentException("jobDefinition", "cannot be read: " + e.getMessage());
    }
  }
}
