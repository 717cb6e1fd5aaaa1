package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server audit export}: the audit trail of every job as JSON lines on standard
 * output, for the bank's log collector (docs/operations.md, "Logs"). Reads the job store, so it
 * runs beside the server on PostgreSQL, or while the server is stopped on H2. It prints nothing
 * else: the entries are the output.
 */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = "Export the audit trail of every job.",
    subcommands = {AuditCommand.Export.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "2:bad command line or configuration"})
final class AuditCommand {
  @ParentCommand GantryServerCommand server;

  @Command(
      name = "export",
      description =
          "Print every audit-trail entry (submission and change of state) as one JSON object per"
              + " line, oldest first: jobId, user, name, seq, from, to, at, reason.")
  static final class Export implements Callable<Integer> {
    @Mixin ConfigurationOptions configuration;

    @Spec CommandSpec spec;

    @ParentCommand AuditCommand audit;

    @Option(
        names = "--since",
        paramLabel = "INSTANT",
        description = "only entries at or after this ISO-8601 instant, e.g. 2026-11-27T00:00:00Z")
    String since;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      Instant from;
      try {
        from = since == null ? Instant.EPOCH : Instant.parse(since);
      } catch (DateTimeParseException e) {
        err.println(
            "gantry-server: --since: '" + since + "' is not an instant like 2026-11-27T00:00:00Z");
        return 2;
      }
      ServerConfig config;
      try {
        ConfigurationOptions before =
            audit == null || audit.server == null ? null : audit.server.configuration;
        config = configuration.orElse(before).load(Map.of());
      } catch (ConfigException e) {
        err.println("gantry-server: " + e.getMessage());
        return 2;
      }
      try (JdbcJobStore store = JdbcJobStore.open(GantryServer.storeSettings(config))) {
        store.auditExport().writeJsonLines(from, spec.commandLine().getOut());
      }
      return 0;
    }
  }
}
