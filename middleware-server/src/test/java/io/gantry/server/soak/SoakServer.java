package io.gantry.server.soak;

import io.gantry.server.api.JobManagement;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak's gantry-server, one process at a time on the same data directory and job store: killed
 * with -9 and started again, as a crash and an operator's restart do. Each start listens on a new
 * port, so each has its own clients, one per account (the users' own logins).
 */
final class SoakServer implements AutoCloseable {
  private record Generation(GantryTestServer server, Map<String, JobManagement> clients) {}

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
