package io.gantry.cli;

import static io.gantry.cli.CliServers.ADMIN;
import static io.gantry.cli.CliServers.ALICE;
import static io.gantry.cli.CliServers.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CLI on a server with user accounts: another user's job looks exactly like one that does not
 * exist (so ids cannot be probed), every user's list is for administrators, and a wrong password is
 * refused.
 */
@ExtendWith(CliServers.Secure.class)
class OtherUsersJobsTest {
  static final String UNKNOWN = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

  @TempDir static Path dir;
  static String alicesJob;

  @BeforeAll
  static void aliceRunsAJob(GantryTestServer server) throws Exception {
    Path job = TestJobs.posix(dir, "alices", "/bin/echo", "alice's output");
    Result submit = CliServers.as(server, ALICE).run("submit", "--quiet", "--wait", job.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    alicesJob = submit.out().strip();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"status", "output", "cancel", "results", "kill", "definition", "audit", "wait"})
  void anotherUsersJobIsExitCode4WithTheMessageOfAnUnknownId(
      String command, GantryTestServer server) {
    Result notYours = CliServers.as(server, BOB).run(command, alicesJob);
    Result unknown = CliServers.as(server, BOB).run(command, UNKNOWN);
    assertEquals(4, notYours.exitCode(), notYours.toString());
    assertEquals("", notYours.out(), notYours.toString());
    assertTrue(
        notYours.err().contains("no job " + alicesJob + " for user bob\n"), notYours.toString());
    assertEquals(new Result(4, unknown.out(), unknown.err().replace(UNKNOWN, alicesJob)), notYours);
  }

  @Test
  void anotherUsersJobsFilesAreNotFoundAndTheOwnerGetsThem(GantryTestServer server)
      throws Exception {
    Path target = dir.resolve("got-stdout.txt");
    Result notYours =
        CliServers.as(server, BOB).run("get", alicesJob, "stdout.txt", "-o", target.toString());
    assertEquals(4, notYours.exitCode(), notYours.toString());
    assertTrue(
        notYours.err().contains("no job " + alicesJob + " for user bob\n"), notYours.toString());
    assertFalse(java.nio.file.Files.exists(target));

    Result own =
        CliServers.as(server, ALICE).run("get", alicesJob, "stdout.txt", "-o", target.toString());
    assertEquals(0, own.exitCode(), own.toString());
    assertEquals("alice's output\n", java.nio.file.Files.readString(target));
  }

  @Test
  void anotherUsersCancelLeavesTheJobAsItWas(GantryTestServer server) {
    CliServers.as(server, BOB).run("cancel", alicesJob);
    Result status = CliServers.as(server, ALICE).run("--quiet", "status", alicesJob);
    assertEquals(new Result(0, alicesJob + " SUCCEEDED\n", ""), status);
  }

  @Test
  void listAllIsAccessDeniedExitCode3ForAUserAndEveryJobForAnAdministrator(
      GantryTestServer server) {
    Result denied = CliServers.as(server, BOB).run("list", "--all");
    assertEquals(
        new Result(
            3, "", "gantry: access denied: only administrators may list every user's jobs\n"),
        denied);

    Result all = CliServers.as(server, ADMIN).run("list", "--all", "--quiet");
    assertEquals(0, all.exitCode(), all.toString());
    assertTrue(all.out().lines().toList().contains(alicesJob), all.toString());
    Result bobs = CliServers.as(server, BOB).run("list", "--quiet");
    assertEquals(0, bobs.exitCode(), bobs.toString());
    assertFalse(bobs.out().contains(alicesJob), bobs.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"list", "status " + UNKNOWN, "server-info"})
  void aCommandWithAWrongPasswordIsExitCode3NamingTheUser(String line, GantryTestServer server) {
    GantryRun wrongPassword =
        new GantryRun(
            List.of(
                "--server",
                server.baseUrl(),
                "--server-fingerprint",
                server.fingerprint().orElseThrow(),
                "--user",
                ALICE),
            Map.of(
                LoginFile.VARIABLE,
                GantryRun.NO_LOGIN_FILE.toString(),
                Invocation.PASSWORD_VARIABLE,
                "not alice's password"),
            Optional.empty());
    Result result = wrongPassword.run(line.split(" "));
    assertEquals(
        new Result(
            3,
            "",
            "gantry: the Gantry server at "
                + server.baseUrl()
                + "/services/JobManagement refused the request as user alice (HTTP 401)\n"),
        result);
  }
}
