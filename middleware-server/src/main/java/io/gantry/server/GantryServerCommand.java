package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.logging.LogSetup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gantry-server}: starts the server and runs until stopped (SIGTERM or Ctrl-C). */
@Command(
    name = "gantry-server",
    mixinStandardHelpOptions = true,
    version = "gantry-server " + GantryServer.VERSION,
    description = {
      "Gantry's job-submission server: SOAP job API, staging, FCFS scheduling, mpirun.",
      "Runs on embedded defaults with no configuration; see middleware-server/docs/configuration.md."
    },
    subcommands = {
      UserCommand.class,
      SettingsCommand.class,
      CacheCommand.class,
      AuditCommand.class,
      AccountingCommand.class,
      StoreCommand.class,
      LedgerDdlCommand.class,
      CheckCommand.class,
      SshCaCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:stopped normally",
      "2:bad command line or configuration",
      "1:failed to start"
    })
public final class GantryServerCommand implements Callable<Integer> {
  @Mixin ConfigurationOptions configuration;

  @Option(names = "--port", paramLabel = "N", description = "port to listen on (default 8443)")
  Integer port;

  @Option(
      names = "--allow-executables",
      paramLabel = "DIR",
      description =
          "also bind DIR read-only into every job's sandbox and put it on the job's PATH"
              + " (appends to jobs.allowed-executable-roots; repeatable)")
  List<Path> allowExecutables = new ArrayList<>();

  @Option(
      names = "--job-supervisor",
      paramLabel = "FILE",
      description =
          "run local jobs under this gantry-stepd so that they outlive the server"
              + " (jobs.supervisor, when the configuration file does not set it, nor"
              + " compute.ssh-host)")
  Path jobSupervisor;

  @Override
  public Integer call() throws Exception {
    Map<String, String> overrides = new HashMap<>();
    if (port != null) {
      overrides.put("listen.port", port.toString());
    }
    if (!allowExecutables.isEmpty()) {
      List<String> roots =
          new ArrayList<>(
              configuration
                  .fileSetting("jobs.allowed-executable-roots")
                  .map(v -> List.of(v.strip().split("[\\s,]+")))
                  .orElse(List.of()));
      allowExecutables.forEach(dir -> roots.add(dir.toAbsolutePath().normalize().toString()));
      overrides.put("jobs.allowed-executable-roots", String.join(" ", roots));
    }
    // the launcher script's default supervisor is for local jobs: a server whose jobs run on a
    // cluster over SSH has none, and the configuration refuses one there
    if (jobSupervisor != null
        && configuration.fileSetting("jobs.supervisor").isEmpty()
        && configuration.fileSetting("compute.ssh-host").isEmpty()) {
      overrides.put("jobs.supervisor", jobSupervisor.toAbsolutePath().normalize().toString());
    }
    ServerConfig settings;
    try {
      settings = configuration.load(overrides);
    } catch (ConfigException e) {
      System.err.println("gantry-server: " + e.getMessage());
      return 2;
    }
    try {
      LogSetup.apply(settings.logging());
    } catch (IllegalStateException e) {
      System.err.println("gantry-server: " + e.getMessage());
      return 1;
    }
    GantryServer server;
    try {
      server = GantryServer.start(settings);
    } catch (Exception e) {
      System.err.println("gantry-server: cannot start: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "gantry-server-stop"));
    server
        .tlsFingerprint()
        .ifPresent(f -> System.out.println("TLS certificate SHA-256 fingerprint: " + f));
    server
        .demoSshPort()
        .ifPresent(p -> System.out.println("demo SSH host listening on 127.0.0.1:" + p));
    System.out.println(
        "gantry-server "
            + GantryServer.VERSION
            + " listening on "
            + server.jobManagementUrl()
            + " (data in "
            + settings.dataDirectory()
            + ")");
    System.out.flush();
    stopped.await();
    return 0;
  }

  public static void main(String[] args) {
    int code = new CommandLine(new GantryServerCommand()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }
}
