package io.gantry.cli;

import static io.gantry.cli.CliServers.ADMIN;
import static io.gantry.cli.CliServers.ALICE;
import static io.gantry.cli.CliServers.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry admin accounting against the running secure test server: after bob's job ended, an
 * administrator sees bob's line as a table, CSV and JSON; a plain user is refused; a bad period is
 * a usage error before any call.
 */
@ExtendWith(CliServers.Secure.class)
class AdminAccountingCommandTest {
  @TempDir Path dir;

  @Test
  void anAdministratorSeesWhatBobsJobUsed(GantryTestServer server) throws Exception {
    String since = Instant.now().minusSeconds(1).toString();
    Path job = TestJobs.posix(dir, "bobs", "/bin/true");
    Result ran = CliServers.as(server, BOB).run("submit", "--quiet", "--wait", job.toString());
    assertEquals(0, ran.exitCode(), ran.toString());

    GantryRun admin = CliServers.as(server, ADMIN);
    Result csv = admin.run("admin", "accounting", "--from", since, "--csv");
    assertEquals(0, csv.exitCode(), csv.toString());
    assertTrue(
        csv.out()
            .startsWith("key,jobs,coreHours,cpuHours,jobsWithCpuTime,tasks,bytesIn,bytesOut\n"),
        csv.out());
    assertTrue(csv.out().lines().anyMatch(l -> l.matches("bob,[1-9]\\d*,[0-9.]+,.*")), csv.out());

    Result table = admin.run("admin", "accounting", "--from", since);
    assertTrue(
        table.out().lines().anyMatch(l -> l.matches("bob +[1-9]\\d* +[0-9.]+ .*")), table.out());
    Result json = admin.run("--json", "admin", "accounting", "--from", since, "--by", "project");
    assertEquals(0, json.exitCode(), json.toString());
    assertTrue(
        json.out().replaceAll("\\s", "").contains("\"by\":\"project\",\"lines\":[{\"key\":null,"),
        json.out());

    assertEquals(3, CliServers.as(server, ALICE).run("admin", "accounting").exitCode());
    Result bad = admin.run("admin", "accounting", "--from", "yesterday");
    assertEquals(2, bad.exitCode(), bad.toString());
    assertTrue(bad.err().contains("'yesterday' is not an instant"), bad.toString());
  }
}
