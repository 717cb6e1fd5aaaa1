package io.gantry.cli;

import io.gantry.cli.soap.InvalidJobFault;
import io.gantry.cli.soap.MissedRuns;
import io.gantry.cli.soap.Problem;
import io.gantry.cli.soap.Schedule;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry schedule add|list|pause|resume|remove}: jobs the server submits by itself, as you,
 * at every time of a cron expression.
 */
@Command(
    name = "schedule",
    mixinStandardHelpOptions = true,
    description = {
      "Jobs the server submits by itself, as you, at every time of a Unix cron expression"
          + " (minute hour day-of-month month day-of-week) in a time zone.",
      "Values may use the scheduled time: ${schedule.date} (2026-11-23), ${schedule.time}"
          + " (18:30), ${schedule.datetime}, ${schedule.name}. Quote them from the shell."
    },
    subcommands = {
      ScheduleCommand.Add.class,
      ScheduleCommand.ListSchedules.class,
      ScheduleCommand.Pause.class,
      ScheduleCommand.Run.class,
      ScheduleCommand.Resume.class,
      ScheduleCommand.Remove.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry schedule add var-bank var-job-named.jsdl --cron '30 18 * * 1-5' \\",
      "      --time-zone Europe/London --set 'business_date=${schedule.date}' --set portfolio=BANK \\",
      "      --calendar uk-bank",
      "  gantry schedule list",
      "  gantry schedule pause var-bank",
      "  gantry schedule run var-bank",
      ExitCodes.HELP
    })
final class ScheduleCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE_OR_IO;
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Add a schedule: the job (checked now, as it will run next) is submitted at every time of"
            + " the cron expression."
      })
  static final class Add implements Callable<Integer> {
    @ParentCommand ScheduleCommand schedule;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "the schedule's name (yours only)")
    String name;

    @Parameters(index = "1", paramLabel = "FILE", description = "the job description (template)")
    Path file;

    @Option(
        names = "--cron",
        required = true,
        paramLabel = "EXPRESSION",
        description = "Unix cron expression, e.g. '30 18 * * 1-5' (18:30, Monday to Friday)")
    String cron;

    @Option(
        names = "--time-zone",
        paramLabel = "ZONE",
        description = "the zone the expression is read in, e.g. Europe/London (the server's)")
    String timeZone;

    @Option(
        names = "--set",
        paramLabel = "NAME=VALUE",
        description = "a parameter value; may use ${schedule.date} and the like; repeatable")
    List<String> sets;

    @Option(
        names = "--missed",
        paramLabel = "run-once|skip",
        defaultValue = "run-once",
        description =
            "times missed while the server was down: run-once (one job at start, for the latest)"
                + " or skip (default: ${DEFAULT-VALUE})")
    String missed;

    @Option(
        names = "--calendar",
        paramLabel = "NAME",
        description =
            "a holiday calendar of the server's (calendar.NAME settings): no job at a time whose"
                + " date it holds; the skipped time is noted on the schedule")
    String calendar;

    @Override
    public Integer call() {
      Invocation gantry = schedule.gantry();
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      MissedRuns policy =
          switch (missed.strip().toLowerCase(Locale.ROOT)) {
            case "run-once" -> MissedRuns.RUN_ONCE;
            case "skip" -> MissedRuns.SKIP;
            default ->
                throw new CommandFailure(
                    ExitCodes.USAGE_OR_IO, "--missed " + missed + ": run-once or skip");
          };
      byte[] xml = read(gantry.file(file), file);
      Map<String, String> values = ParameterValues.of(sets);
      List<Problem>[] rejection = newRejection();
      Schedule added =
          gantry
              .connect()
              .call(
                  s -> {
                    try {
                      return s.addSchedule(
                          name,
                          cron,
                          timeZone,
                          policy,
                          ParameterValues.document(xml, values),
                          calendar);
                    } catch (InvalidJobFault e) {
                      rejection[0] = e.getFaultInfo().getProblem();
                      return null;
                    }
                  });
      if (added == null) {
        err.println(file + ": INVALID (checked as it would run at the schedule's next time)");
        for (Problem p : rejection[0]) {
          String where = p.getLine() > 0 ? "line " + p.getLine() + ":" + p.getColumn() + " " : "";
          String severity = "WARNING".equals(p.getSeverity()) ? "warning: " : "";
          err.println("  " + severity + where + p.getPath() + ": " + p.getMessage());
        }
        err.flush();
        return ExitCodes.NEGATIVE;
      }
      print(gantry, out, List.of(added));
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description =
          "Your schedules: calendar, next time (after its holidays), last time and its job (or"
              + " why none ran, e.g. a holiday).")
  static final class ListSchedules implements Callable<Integer> {
    @ParentCommand ScheduleCommand schedule;
    @Spec CommandSpec spec;

    @Option(names = "--all", description = "every user's schedules (administrators only)")
    boolean allUsers;

    @Override
    public Integer call() {
      Invocation gantry = schedule.gantry();
      List<Schedule> all = gantry.connect().call(s -> s.listSchedules(allUsers));
      print(gantry, spec.commandLine().getOut(), all);
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = "Stop a schedule for now.")
  static final class Pause extends OneSchedule {
    @Override
    Schedule act(io.gantry.cli.soap.JobManagement s, String id) {
      return s.pauseSchedule(id);
    }
  }

  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description = {
        "Submit a schedule's job now, as if one of its times had come now (its ${schedule.*}"
            + " values from now), paused or not; its own times are unchanged. Prints the job id."
      })
  static final class Run implements Callable<Integer> {
    @ParentCommand ScheduleCommand schedule;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "NAME|ID", description = "the schedule: your name for it, or its id")
    String nameOrId;

    @Override
    public Integer call() {
      Invocation gantry = schedule.gantry();
      String jobId = gantry.connect().call(s -> s.runSchedule(nameOrId));
      PrintWriter out = spec.commandLine().getOut();
      if (gantry.json) {
        JsonOutput.print(out, Map.of("jobId", jobId));
      } else {
        out.println(gantry.quiet ? jobId : "submitted job " + jobId);
      }
      out.flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume a paused schedule from now; times passed meanwhile do not run.")
  static final class Resume extends OneSchedule {
    @Override
    Schedule act(io.gantry.cli.soap.JobManagement s, String id) {
      return s.resumeSchedule(id);
    }
  }

  @Command(
      name = "remove",
      mixinStandardHelpOptions = true,
      description = "Remove a schedule; the jobs it submitted stay.")
  static final class Remove extends OneSchedule {
    @Override
    Schedule act(io.gantry.cli.soap.JobManagement s, String id) {
      return s.removeSchedule(id);
    }

    @Override
    boolean removes() {
      return true;
    }
  }

  /** pause, resume and remove: one schedule by name (yours) or id, printed as it is after. */
  abstract static class OneSchedule implements Callable<Integer> {
    @ParentCommand ScheduleCommand schedule;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "NAME|ID", description = "the schedule: your name for it, or its id")
    String nameOrId;

    abstract Schedule act(io.gantry.cli.soap.JobManagement service, String nameOrId);

    /** Whether the schedule is gone afterwards (the server answers with it as it was). */
    boolean removes() {
      return false;
    }

    @Override
    public Integer call() {
      Invocation gantry = schedule.gantry();
      Schedule after = gantry.connect().call(s -> act(s, nameOrId));
      print(gantry, spec.commandLine().getOut(), List.of(after), removes());
      return ExitCodes.OK;
    }
  }

  @ParentCommand Invocation gantry;

  Invocation gantry() {
    return gantry;
  }

  private static void print(Invocation gantry, PrintWriter out, List<Schedule> schedules) {
    print(gantry, out, schedules, false);
  }

  /** The schedules as a table, JSON or ids; {@code removed}: they were just removed. */
  private static void print(
      Invocation gantry, PrintWriter out, List<Schedule> schedules, boolean removed) {
    if (gantry.json) {
      List<Map<String, Object>> json = new ArrayList<>();
      for (Schedule s : schedules) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("scheduleId", s.getScheduleId());
        one.put("name", s.getName());
        one.put("owner", s.getOwner());
        one.put("cron", s.getCron());
        one.put("timeZone", s.getTimeZone());
        one.put("calendar", s.getCalendar());
        one.put("missedRuns", s.getMissedRuns().value());
        one.put("paused", s.isPaused());
        if (removed) {
          one.put("removed", true);
        }
        one.put("nextTime", Times.json(s.getNextTime()));
        one.put("lastTime", Times.json(s.getLastTime()));
        one.put("lastJobId", s.getLastJobId());
        one.put("lastNote", s.getLastNote());
        one.put("parameters", ParameterValues.json(s.getParameter()));
        json.add(one);
      }
      JsonOutput.print(out, Map.of("schedules", json));
      return;
    }
    if (gantry.quiet) {
      schedules.forEach(s -> out.println(s.getScheduleId() + " " + s.getName()));
      out.flush();
      return;
    }
    TextTable table =
        new TextTable(
            "NAME",
            "OWNER",
            "CRON",
            "ZONE",
            "STATE",
            "CALENDAR",
            "NEXT",
            "LAST",
            "LAST JOB",
            "PARAMETERS",
            "ID");
    for (Schedule s : schedules) {
      table.row(
          s.getName(),
          s.getOwner(),
          s.getCron(),
          s.getTimeZone(),
          removed ? "removed" : s.isPaused() ? "paused" : "active",
          s.getCalendar(),
          s.getNextTime() == null ? null : Times.text(s.getNextTime()),
          s.getLastTime() == null ? null : Times.text(s.getLastTime()),
          s.getLastJobId() != null ? s.getLastJobId() : TextTable.cut(s.getLastNote(), 60),
          TextTable.cut(ParameterValues.text(s.getParameter()), 60),
          s.getScheduleId());
    }
    if (schedules.isEmpty()) {
      out.println("no schedules");
    } else {
      table.print(out);
    }
    out.flush();
  }

  /** The bytes of {@code file}; errors name it as the user did ({@code named}). */
  private static byte[] read(Path file, Path named) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, named + ": no such file");
    } catch (IOException e) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, named + ": cannot read: " + e.getMessage());
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // a one-slot holder the lambda fills
  private static List<Problem>[] newRejection() {
    return new List[1];
  }
}
