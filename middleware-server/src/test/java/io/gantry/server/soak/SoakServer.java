package io.gantry.server.soak;

import io.gantry.server.api.JobManagement;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's gantry-server, one process at a time on the same data directory and job store: killed
 * with -9 and started again, as a crash and an operator's restart do. Each start listens on a new
 * port, so each has its own clients, one per account (the users' own logins).
 */
final class SoakServer implements AutoCloseable {
  private record Generation(GantryTestServer server, Map<String, JobManagement> clients) {}

  private static final Pattern SUBMITTED = Pattern.compile("submitted job (\\S+)");

  private final GantryTestServerBuilder builder;
  private final AtomicInteger starts = new AtomicInteger();
  private volatile Generation current;

  SoakServer(GantryTestServerBuilder builder) throws IOException, InterruptedException {
    this.builder = builder;
    start();
  }

  private synchronized void start() throws IOException, InterruptedException {
    GantryTestServer server = builder.name("soak-" + starts.incrementAndGet()).start();
    Map<String, JobManagement> clients = new HashMap<>();
    for (TestAccount a : server.accounts()) {
      clients.put(
          a.name(), JobManagementClients.of(server, new Login.Basic(a.name(), a.password())));
    }
    current = new Generation(server, clients);
  }

  /** kill -9, then a new server on the same data directory, ready when this returns. */
  synchronized void killAndRestart() throws IOException, InterruptedException {
    current.server().killHard();
    start();
  }

  /** The client of {@code user} for the server running now. */
  JobManagement client(String user) {
    return current.clients().get(user);
  }

  /**
   * Submits {@code jobFile} as {@code user} with the command-line client {@code gantry} (a JVM of
   * its own per command, no agent, no configuration file of root's); returns the job's id.
   */
  String submitWithCli(Path gantry, String user, Path jobFile, Path home)
      throws IOException, InterruptedException {
    GantryTestServer server = current.server();
    List<String> command =
        new ArrayList<>(List.of(gantry.toString(), "--server", server.baseUrl()));
    server.fingerprint().ifPresent(f -> command.addAll(List.of("--server-fingerprint", f)));
    command.addAll(List.of("--user", user, "submit", jobFile.toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("GANTRY_PASSWORD", server.account(user).password());
    pb.environment().put("GANTRY_AGENT", "off");
    pb.environment().put("HOME", home.toString());
    pb.environment().remove("XDG_CONFIG_HOME");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException("gantry submit did not end");
    }
    Matcher m = SUBMITTED.matcher(out);
    if (p.exitValue() != 0 || !m.find()) {
      throw new IOException("gantry submit exited with " + p.exitValue() + ": " + out.strip());
    }
    return m.group(1);
  }

  /** The demo SSH host's port of the server running now (each start picks its own). */
  int demoSshPort() {
    return current.server().demoSshPort().orElseThrow();
  }

  /** The directory of every job's directory (the same for every start: one data directory). */
  java.nio.file.Path jobDirectories() {
    return current.server().jobDirectory("x").getParent();
  }

  long pid() {
    return current.server().pid();
  }

  int starts() {
    return starts.get();
  }

  @Override
  public synchronized void close() {
    current.server().close();
  }
}
