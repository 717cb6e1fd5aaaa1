package io.gantry.server.internal.accounting;

import io.gantry.server.api.AccountingLine;
import io.gantry.server.api.AccountingReport;
import io.gantry.server.internal.jobstore.JsonObject;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;

/**
 * The accounting report as {@code gantry-server accounting} prints it: a table for people, JSON
 * (one object) or CSV (RFC 4180, with a header) for spreadsheets and billing. Core-hours are
 * core-seconds / 3600; a line without a key holds the jobs without a project.
 */
public final class AccountingFormats {
  private static final List<String> COLUMNS =
      List.of(
          "key",
          "jobs",
          "coreHours",
          "cpuHours",
          "jobsWithCpuTime",
          "tasks",
          "bytesIn",
          "bytesOut");

  private AccountingFormats() {}

  /** The formats, as --format names them. */
  public enum Format {
    TABLE,
    JSON,
    CSV
  }

  public static void write(AccountingReport report, Format format, PrintWriter out) {
    switch (format) {
      case TABLE -> table(report, out);
      case JSON -> json(report, out);
      case CSV -> csv(report, out);
    }
    out.flush();
  }

  private static void table(AccountingReport report, PrintWriter out) {
    out.printf(
        Locale.ROOT, "Jobs that ended from %s to %s, by %s%n", report.from, report.to, report.by);
    String row = "%-24s %8s %12s %12s %8s %16s %16s%n";
    out.printf(
        Locale.ROOT,
        row,
        report.by,
        "jobs",
        "core-hours",
        "cpu-hours",
        "tasks",
        "bytes in",
        "bytes out");
    for (AccountingLine l : report.lines) {
      out.printf(
          Locale.ROOT,
          row,
          key(l),
          l.jobs,
          hours(l.coreSeconds),
          hours(l.cpuSeconds) + (l.jobsWithCpuTime < l.jobs ? "*" : ""),
          l.tasks,
          l.bytesIn,
          l.bytesOut);
    }
    if (report.lines.stream().anyMatch(l -> l.jobsWithCpuTime < l.jobs)) {
      out.println("* CPU time of only the jobs whose backend reported it");
    }
  }

  private static void json(AccountingReport report, PrintWriter out) {
    StringBuilder lines = new StringBuilder("[");
    for (AccountingLine l : report.lines) {
      if (lines.length() > 1) {
        lines.append(',');
      }
      JsonObject o = new JsonObject();
      if (l.key == null) {
        o.putJson("key", "null");
      } else {
        o.put("key", l.key);
      }
      o.put("jobs", l.jobs)
          .putJson("coreHours", hours(l.coreSeconds))
          .putJson("cpuHours", hours(l.cpuSeconds))
          .put("jobsWithCpuTime", l.jobsWithCpuTime)
          .put("tasks", l.tasks)
          .put("bytesIn", l.bytesIn)
          .put("bytesOut", l.bytesOut);
      lines.append(o);
    }
    out.println(
        new JsonObject()
            .put("from", report.from.toString())
            .put("to", report.to.toString())
            .put("by", report.by)
            .putJson("lines", lines.append(']').toString()));
  }

  private static void csv(AccountingReport report, PrintWriter out) {
    // RFC 4180 quoting by commons-csv, one record per line, CRLF as the RFC has it
    out.print(CSVFormat.RFC4180.format(COLUMNS.toArray()) + "\r\n");
    for (AccountingLine l : report.lines) {
      out.print(
          CSVFormat.RFC4180.format(
                  l.key == null ? "" : l.key,
                  l.jobs,
                  hours(l.coreSeconds),
                  hours(l.cpuSeconds),
                  l.jobsWithCpuTime,
                  l.tasks,
                  l.bytesIn,
                  l.bytesOut)
              + "\r\n");
    }
  }

  private static String key(AccountingLine l) {
    return l.key == null ? "(no project)" : l.key;
  }

  private static String hours(double seconds) {
    return String.format(Locale.ROOT, "%.4f", seconds / 3600);
  }
}
