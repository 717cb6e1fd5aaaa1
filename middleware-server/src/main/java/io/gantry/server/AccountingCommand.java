package io.gantry.server;

import io.gantry.server.api.AccountingReport;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.accounting.AccountingFormats;
import io.gantry.server.internal.accounting.AccountingService;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server accounting}: what jobs used, per user or per project, over a period
 * (docs/operations.md, "Accounting and quotas"). Reads the job store, so it runs beside the server
 * on PostgreSQL, or while the server is stopped on H2; administrators elsewhere use the SOAP
 * operation getAccounting.
 */
@Command(
    name = "accounting",
    mixinStandardHelpOptions = true,
    description =
        "Print what jobs that ended in a period used (jobs, core-hours, CPU hours, task-farm"
            + " tasks, bytes staged in and out), one line per user or per project.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "2:bad command line or configuration"})
final class AccountingCommand implements Callable<Integer> {
  @ParentCommand GantryServerCommand server;

  @Mixin ConfigurationOptions configuration;

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
      description = "one line per user (default) or per project (JSDL JobProject)")
  String by = "user";

  @Option(
      names = "--format",
      paramLabel = "table|json|csv",
      description = "table (default), one JSON object, or CSV with a header")
  String format = "table";

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Instant now = Instant.now();
    Instant start;
    Instant end;
    AccountingFormats.Format output;
    try {
      start =
          from == null
              ? YearMonth.from(now.atZone(ZoneOffset.UTC))
                  .atDay(1)
                  .atStartOfDay(ZoneOffset.UTC)
                  .toInstant()
              : Instant.parse(from);
      end = to == null ? now : Instant.parse(to);
    } catch (DateTimeParseException e) {
      err.println(
          "gantry-server: --from/--to: '"
              + e.getParsedString()
              + "' is not an instant like 2026-11-01T00:00:00Z");
      return 2;
    }
    try {
      output = AccountingFormats.Format.valueOf(format.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      err.println("gantry-server: --format: '" + format + "' is none of table, json, csv");
      return 2;
    }
    ServerConfig config;
    try {
      config = configuration.orElse(server == null ? null : server.configuration).load(Map.of());
    } catch (ConfigException e) {
      err.println("gantry-server: " + e.getMessage());
      return 2;
    }
    try (JdbcJobStore store = JdbcJobStore.open(GantryServer.storeSettings(config))) {
      AccountingReport report;
      try {
        report = new AccountingService(store.accounting()).report(start, end, by);
      } catch (IllegalArgumentException e) {
        err.println("gantry-server: " + e.getMessage());
        return 2;
      }
      AccountingFormats.write(report, output, spec.commandLine().getOut());
    }
    return 0;
  }
}
