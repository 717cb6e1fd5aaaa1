package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server check}: tests a configuration without starting the server, so an operator
 * finds a wrong password or an unreadable key before users' jobs do.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Test the configuration without starting the server: the settings, each named data source"
          + " (a connection with each of its accounts), each SSH identity's key file, the TLS"
          + " keystore and the job store. One line per thing checked; no secret is printed.",
      "Run it with the server stopped: a running server holds an H2 job store's file lock."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:everything checked is usable",
      "1:something is wrong (each FAIL line says what)",
      "2:the configuration cannot be loaded (a bad setting)"
    })
final class CheckCommand implements Callable<Integer> {
  @ParentCommand GantryServerCommand server;
  @Mixin ConfigurationOptions configuration;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ServerConfig config;
    try {
      config = configuration.orElse(server == null ? null : server.configuration).load(Map.of());
    } catch (ConfigException e) {
      out.println("FAIL  settings: " + e.getMessage());
      out.flush();
      return 2;
    }
    out.println("ok    settings (data directory " + config.dataDirectory() + ")");
    List<ConfigurationCheck.Finding> findings = new ConfigurationCheck(config).run();
    findings.forEach(f -> out.println(f.line()));
    long failed = findings.stream().filter(f -> f.problem().isPresent()).count();
    out.println(failed == 0 ? "all checks passed" : failed + " check(s) failed");
    out.flush();
    return failed == 0 ? 0 : 1;
  }
}
