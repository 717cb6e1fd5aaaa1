package io.gantry.cli;

import static io.gantry.cli.CliServers.ALICE;
import static io.gantry.cli.CliServers.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry worker-session} against a real server whose application {@code pricer} is
 * instrument-price-worker (node-programs/build): alice prices positions through a session of 2
 * workers, one line per position, and bob can neither see nor feed her session.
 */
@ExtendWith(WorkerSessionCliTest.SessionServer.class)
class WorkerSessionCliTest {
  private static final Path BUILD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build");

  /** TLS, accounts alice and bob, the pricing worker as the named application pricer. */
  static final class SessionServer extends CliServers.Resolver {
    SessionServer() {
      super(
          "cli-worker-sessions",
          dir ->
              GantryTestServer.builder(dir)
                  .secure()
                  .account(TestAccount.user(ALICE))
                  .account(TestAccount.user(BOB))
                  .setting("jobs.allowed-executable-roots", BUILD.toString())
                  .setting(
                      "application.pricer.executable",
                      BUILD.resolve("instrument-price-worker").toString()));
    }
  }

  @TempDir Path dir;

  @Test
  void alicePricesPositionsThroughASessionThatBobCannotTouch(GantryTestServer server)
      throws Exception {
    GantryRun alice = CliServers.as(server, ALICE);
    GantryRun bob = CliServers.as(server, BOB);
    Result open =
        alice.run("--quiet", "worker-session", "open", "--application", "pricer", "--workers", "2");
    assertEquals(0, open.exitCode(), open.toString());
    String session = open.out().strip();
    try {
      Path positions = dir.resolve("positions.txt");
      Files.writeString(
          positions,
          "spot,10,101.5,,,,\n"
              + "zcb,1000,,0.05,,2,\n"
              + "call,1,100,0.03,100,1,0.2\n"
              + "put,2,100,0.03,110,0.5,0.25\n"
              + "swap,1,1,1,1,1,1\n");
      Result submit =
          alice.run("worker-session", "submit", session, "--file", positions.toString());
      assertEquals(0, submit.exitCode(), submit.toString());
      List<String> ids = submit.out().lines().toList();
      assertEquals(5, ids.size(), submit.toString());
      Result high =
          alice.run("worker-session", "submit", session, "--priority", "high", "spot,1,2,,,,");
      assertEquals(0, high.exitCode(), high.toString());

      Result take = alice.run("worker-session", "take", session, "--count", "6", "--timeout", "2m");
      assertEquals(0, take.exitCode(), take.toString());
      Map<String, String> answers = new TreeMap<>();
      for (String line : take.out().lines().toList()) {
        String[] f = line.split("\t", -1);
        assertEquals("answered", f[1], line);
        answers.put(f[0], f[4]);
      }
      assertEquals("1015.000000", answers.get(ids.get(0)));
      assertEquals(
          String.format(java.util.Locale.ROOT, "%.6f", 1000 * Math.exp(-0.05 * 2)),
          answers.get(ids.get(1)));
      assertEquals(price("call", "1", "100", "0.03", "100", "1", "0.2"), answers.get(ids.get(2)));
      assertEquals(price("put", "2", "100", "0.03", "110", "0.5", "0.25"), answers.get(ids.get(3)));
      assertTrue(
          answers.get(ids.get(4)).startsWith("error: unknown instrument 'swap'"),
          answers.toString());
      assertEquals("2.000000", answers.get(high.out().strip()));

      Result status = alice.run("--json", "worker-session", "status", session);
      assertTrue(status.out().contains("\"answered\" : 6"), status.toString());
      assertEquals(4, bob.run("worker-session", "status", session).exitCode());
      Result feed = bob.run("worker-session", "submit", session, "spot,1,1,,,,");
      assertEquals(4, feed.exitCode(), feed.toString());
      assertTrue(feed.err().contains("no worker session " + session + " for user bob"), feed.err());
      assertEquals(4, bob.run("worker-session", "take", session, "--wait", "0").exitCode());
      assertEquals(4, bob.run("worker-session", "close", session).exitCode());
      assertEquals(new Result(0, "no worker sessions\n", ""), bob.run("worker-session", "list"));
    } finally {
      Result close = alice.run("worker-session", "close", session);
      assertEquals(0, close.exitCode(), close.toString());
      assertTrue(close.out().contains("closed"), close.toString());
    }
    assertEquals(4, alice.run("worker-session", "status", session).exitCode());
  }

  /** What instrument-price (the farm's one-task pricer) prints for the same position. */
  private static String price(String... position) throws Exception {
    List<String> argv = new java.util.ArrayList<>();
    argv.add(BUILD.resolve("instrument-price").toString());
    argv.addAll(List.of(position));
    Process p = new ProcessBuilder(argv).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor());
    return out;
  }
}
