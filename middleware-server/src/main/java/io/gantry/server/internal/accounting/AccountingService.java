package io.gantry.server.internal.accounting;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.AccountingLine;
import io.gantry.server.api.AccountingReport;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.internal.jobstore.JobAccounting;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import java.time.Instant;
import java.util.Locale;

/**
 * The SOAP face of accounting ({@code getAccounting}): administrators only, since it shows every
 * user's use. The same report as {@code gantry-server accounting} on the server host.
 */
public final class AccountingService {
  private final JobAccounting accounting;

  public AccountingService(JobAccounting accounting) {
    this.accounting = accounting;
  }

  /** getAccounting: {@code from} and {@code to} as ISO-8601 instants. */
  public AccountingReport report(Caller caller, String from, String to, String by)
      throws AccessDeniedFault {
    if (!caller.admin()) {
      String message = "only administrators may read the accounting of every user";
      throw new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
    }
    return report(instant("from", from), instant("to", to), by);
  }

  /** The report, for an administrator or the server host's command. */
  public AccountingReport report(Instant from, Instant to, String by) {
    if (!from.isBefore(to)) {
      throw new InvalidArgumentException("to", "must be after from (" + from + "), not " + to);
    }
    JobAccounting.Grouping grouping = grouping(by);
    AccountingReport report = new AccountingReport();
    report.from = from;
    report.to = to;
    report.by = grouping.name().toLowerCase(Locale.ROOT);
    for (JobAccounting.Line l : accounting.report(from, to, grouping)) {
      report.lines.add(line(l));
    }
    return report;
  }

  private static Instant instant(String name, String value) {
    try {
      return Instant.parse(value == null ? "" : value.strip());
    } catch (java.time.format.DateTimeParseException e) {
      throw new InvalidArgumentException(
          name, "'" + value + "' is not an instant like 2026-11-01T00:00:00Z");
    }
  }

  /** "user" (also when absent) or "project". */
  public static JobAccounting.Grouping grouping(String by) {
    if (by == null || by.isBlank() || by.strip().equalsIgnoreCase("user")) {
      return JobAccounting.Grouping.USER;
    }
    if (by.strip().equalsIgnoreCase("project")) {
      return JobAccounting.Grouping.PROJECT;
    }
    throw new InvalidArgumentException("by", "must be user or project, not '" + by + "'");
  }

  private static AccountingLine line(JobAccounting.Line l) {
    AccountingLine line = new AccountingLine();
    line.key = l.key();
    line.jobs = l.jobs();
    line.coreSeconds = l.coreSeconds();
    line.cpuSeconds = l.cpuSeconds();
    line.jobsWithCpuTime = l.jobsWithCpuTime();
    line.tasks = l.tasks();
    line.bytesIn = l.bytesIn();
    line.bytesOut = l.bytesOut();
    return line;
  }
}
