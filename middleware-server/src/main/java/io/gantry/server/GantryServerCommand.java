package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.config.ServerConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gantry-server}: starts the server and runs until stopped (SIGTERM or Ctrl-C). */
@Command(name = "gantry-server", mixinStandardHelpOptions = true, version = "gantry-server " + GantryServer.VERSION,
    description = {"Gantry's job-submission server: SOAP job API, staging, FCFS scheduling, mpirun.",
        "Runs on embedded defaults with no configuration; see middleware-server/docs/configuration.md."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:stopped normally", "2:bad command line or configuration", "1:failed to start"})
public final class GantryServerCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", description = "configuration file (Java properties)")
  Path config;

  @Option(names = "--port", paramLabel = "N", description = "port to listen on (default 8080)")
  Integer port;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "data directory (default ~/.gantry-server)")
  Path dataDir;

  @Override
  public Integer call() throws Exception {
    Map<String, String> overrides = new HashMap<>();
    if (port != null) {
      overrides.put("listen.port", port.toString());
    }
    if (dataDir != null) {
      overrides.put("data.dir", dataDir.toString());
    }
    ServerConfig settings;
    try {
      settings = new ServerConfigLoader().load(config, overrides);
    } catch (ConfigException e) {
      System.err.println("gantry-server: " + e.getMessage());
      return 2;
    }
    GantryServer server;
    try {
      server = GantryServer.start(settings);
    } catch (Exception e) {
      System.err.println("gantry-server: cannot start: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "gantry-server-stop"));
    System.out.println("gantry-server " + GantryServer.VERSION + " listening on "
        + server.jobManagementUrl() + " (data in " + settings.dataDirectory() + ")");
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
