package io.gantry.cli;

import static io.gantry.cli.CliServers.ADMIN;
import static io.gantry.cli.CliServers.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry cache list|clear} over SOAP against a real server with the demo market and the
 * stage-in cache on: after alice's job (the VaR example's extracts, here declaring CacheValidity),
 * the administrator sees its entries and clears them; alice is refused.
 */
@ExtendWith(StageInCacheCommandTest.CacheServer.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StageInCacheCommandTest {
  /** TLS, accounts admin and alice, the demo market; the cache is on by default. */
  static final class CacheServer extends CliServers.Resolver {
    CacheServer() {
      super(
          "cli-cache",
          dir ->
              GantryTestServer.builder(dir)
                  .secure()
                  .demo(50)
                  .slots(2)
                  .account(TestAccount.admin(ADMIN))
                  .account(TestAccount.user(ALICE)));
    }
  }

  @TempDir static Path dir;

  @BeforeAll
  static void aliceRunsACachedJob(GantryTestServer server) throws Exception {
    Path job = TestJobs.varJobStagingOnlyCached(dir);
    Result submit = CliServers.as(server, ALICE).run("submit", "--quiet", "--wait", job.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
  }

  @Test
  @Order(1)
  void aUserIsDeniedBothListAndClear(GantryTestServer server) {
    assertEquals(
        new Result(
            3, "", "gantry: access denied: only administrators may list the stage-in cache\n"),
        CliServers.as(server, ALICE).run("cache", "list"));
    assertEquals(
        new Result(
            3, "", "gantry: access denied: only administrators may clear the stage-in cache\n"),
        CliServers.as(server, ALICE).run("cache", "clear"));
  }

  @Test
  @Order(2)
  void theAdministratorListsTheJobsEntriesAndClearsOneThenAll(GantryTestServer server) {
    Result list = CliServers.as(server, ADMIN).run("cache", "list");
    assertEquals(0, list.exitCode(), list.toString());
    assertTrue(list.out().contains("(cache.max-bytes)"), list.toString());
    assertTrue(list.out().contains("FROM position"), list.toString());
    assertTrue(list.out().contains("'demo-market'"), list.toString());

    Result keys = CliServers.as(server, ADMIN).run("--quiet", "cache", "list");
    List<String> entries = keys.out().lines().toList();
    assertTrue(entries.size() >= 3, "positions, parameters and factor list: " + keys);
    entries.forEach(k -> assertTrue(k.matches("[0-9a-f]{64}"), k));

    Result json = CliServers.as(server, ADMIN).run("--json", "cache", "list");
    assertTrue(json.out().contains("\"key\" : \"" + entries.get(0) + "\""), json.toString());

    Result one = CliServers.as(server, ADMIN).run("cache", "clear", "--key", entries.get(0));
    assertEquals(new Result(0, "removed 1 entry\n", ""), one);
    Result again = CliServers.as(server, ADMIN).run("cache", "clear", "--key", entries.get(0));
    assertEquals(
        new Result(1, "", "gantry: no stage-in cache entry " + entries.get(0) + "\n"), again);
    Result bad = CliServers.as(server, ADMIN).run("cache", "clear", "--key", "../x");
    assertEquals(2, bad.exitCode(), bad.toString());

    Result all = CliServers.as(server, ADMIN).run("--quiet", "cache", "clear");
    assertEquals(new Result(0, (entries.size() - 1) + "\n", ""), all);
    assertEquals(
        new Result(0, "", ""), CliServers.as(server, ADMIN).run("--quiet", "cache", "list"));
  }
}
