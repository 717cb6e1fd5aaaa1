package io.gantry.cli;

import io.gantry.cli.soap.AccountingLine;
import io.gantry.cli.soap.AccountingReport;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.commons.csv.CSVFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry admin accounting}: what jobs that ended in a period used, per user or per project
 * (SOAP getAccounting; docs/operations.md, "Accounting and quotas"). The same columns as {@code
 * gantry-server accounting}: core-hours are core-seconds / 3600.
 */
@Command(
    name = "accounting",
    mixinStandardHelpOptions = true,
    description =
        "Show what jobs that ended in a period used, one line per user or per project (JSDL"
            + " JobProject): jobs, core-hours, CPU hours, task-farm tasks, bytes staged in and"
            + " out. Administrators only. A table by default; --json or --csv for programs.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry admin accounting                     # this month, by user",
      "  gantry admin accounting --from 2026-10-01T00:00:00Z --to 2026-11-01T00:00:00Z"
          + " --by project --csv",
      ExitCodes.HELP
    })
final class AdminAccountingCommand implements Callable<Integer> {
  static final List<String> COLUMNS =
      List.of(
          "key",
          "jobs",
          "coreHours",
          "cpuHours",
          "jobsWithCpuTime",
          "tasks",
          "bytesIn",
          "bytesOut");

  @ParentCommand AdminCommand admin;
  @Spec CommandSpec spec;

  @Option(
      names = "--from",
      paramLabel = "INSTANT",
      description =
          "jobs that ended at or after this ISO-8601 instant (default: this month's start, UTC)")
  String from;

  @Option(
      names = "--to",
      paramLabel = "INSTANT",
      description = "jobs that ended before this instant (default: now)")
  String to;

  @Option(
      names = "--by",
      paramLabel = "user|project",
      defaultValue = "user",
      description = "one line per user (default) or per project")
  String by;

  @Option(names = "--csv", description = "print CSV (RFC 4180, a header row) instead of a table")
  boolean csv;

  @Override
  public Integer call() {
    Invocation gantry = admin.gantry;
    Instant now = Instant.now();
    Instant start =
        from == null
            ? YearMonth.from(now.atZone(ZoneOffset.UTC))
                .atDay(1)
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant()
            : instant(from);
    Instant end = to == null ? now : instant(to);
    if (!by.equals("user") && !by.equals("project")) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "--by: '" + by + "' is neither user nor project");
    }
    AccountingReport report =
        gantry.connect().call(s -> s.getAccounting(start.toString(), end.toString(), by));
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      List<Map<String, Object>> lines = new ArrayList<>();
      report.getLine().forEach(l -> lines.add(row(l)));
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("from", Times.json(report.getFrom()));
      answer.put("to", Times.json(report.getTo()));
      answer.put("by", report.getBy());
      answer.put("lines", lines);
      JsonOutput.print(out, answer);
    } else if (csv) {
      out.print(CSVFormat.RFC4180.format(COLUMNS.toArray()) + "\n");
      for (AccountingLine l : report.getLine()) {
        out.print(CSVFormat.RFC4180.format(row(l).values().toArray()) + "\n");
      }
    } else {
      if (!gantry.quiet) {
        out.println(
            "Jobs that ended from "
                + Times.text(report.getFrom())
                + " to "
                + Times.text(report.getTo())
                + ", by "
                + report.getBy());
      }
      TextTable table =
          new TextTable(
              report.getBy().toUpperCase(Locale.ROOT),
              "JOBS",
              "CORE-HOURS",
              "CPU-HOURS",
              "TASKS",
              "BYTES IN",
              "BYTES OUT");
      boolean partialCpu = false;
      for (AccountingLine l : report.getLine()) {
        boolean partial = l.getJobsWithCpuTime() < l.getJobs();
        partialCpu |= partial;
        table.row(
            l.getKey() == null ? "(no project)" : l.getKey(),
            l.getJobs(),
            hours(l.getCoreSeconds()),
            hours(l.getCpuSeconds()) + (partial ? "*" : ""),
            l.getTasks(),
            l.getBytesIn(),
            l.getBytesOut());
      }
      table.print(out);
      if (partialCpu && !gantry.quiet) {
        out.println("* CPU time of only the jobs whose backend reported it");
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO,
          "--from/--to: '" + text + "' is not an instant like 2026-11-01T00:00:00Z");
    }
  }

  private static Map<String, Object> row(AccountingLine l) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("key", l.getKey());
    row.put("jobs", l.getJobs());
    row.put("coreHours", hours(l.getCoreSeconds()));
    row.put("cpuHours", hours(l.getCpuSeconds()));
    row.put("jobsWithCpuTime", l.getJobsWithCpuTime());
    row.put("tasks", l.getTasks());
    row.put("bytesIn", l.getBytesIn());
    row.put("bytesOut", l.getBytesOut());
    return row;
  }

  /** Core-seconds as hours with four decimals, as gantry-server accounting prints them. */
  private static String hours(double seconds) {
    return String.format(Locale.ROOT, "%.4f", seconds / 3600);
  }
}
