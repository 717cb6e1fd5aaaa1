package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * cancel, kill and wait --timeout on jobs that sleep. The test server has two slots: two sleepers
 * run, and a third job waits for a slot (STAGED), where only cancel applies.
 */
@ExtendWith(CliServers.Plain.class)
class CancelAndKillTest {
  @TempDir Path dir;
  private GantryRun gantry;
  private final List<String> submitted = new ArrayList<>();

  private String submit(Path job) {
    Result submit = gantry.run("submit", "-q", job.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    submitted.add(submit.out().strip());
    return submit.out().strip();
  }

  /** Sleepers left behind by a failed assertion would hold the slots the other tests need. */
  @AfterEach
  void stopWhatIsLeft() {
    for (String id : submitted) {
      gantry.run("cancel", id);
      gantry.run("kill", id);
    }
  }

  /** Polls {@code gantry status} until the job's state is {@code state}. */
  private static void awaitState(GantryRun gantry, String id, String state) {
    Await.value(
        "job " + id + " to be " + state,
        Duration.ofSeconds(60),
        () -> gantry.run("status", "-q", id).out(),
        out -> out.equals(id + " " + state + "\n"));
  }

  @Test
  void aQueuedJobIsCancelledARunningOneKilledAndEachRefusesTheOtherVerb(GantryTestServer server)
      throws Exception {
    gantry = new GantryRun(server.baseUrl());
    Path sleeper = TestJobs.posix(dir, "sleeper", "/bin/sh", "-c", "sleep 30");
    String first = submit(sleeper);
    String second = submit(sleeper);
    awaitState(gantry, first, "RUNNING");
    awaitState(gantry, second, "RUNNING");
    String queued = submit(sleeper);
    awaitState(gantry, queued, "STAGED"); // staged in, waiting for a slot

    Result wrongVerb = gantry.run("kill", queued);
    assertEquals(1, wrongVerb.exitCode(), wrongVerb.toString());
    assertTrue(
        wrongVerb
            .err()
            .contains(
                "job "
                    + queued
                    + " is STAGED: its program has not started; use 'gantry cancel "
                    + queued
                    + "'"),
        wrongVerb.toString());
    assertFalse(wrongVerb.err().contains("cancelJob"), wrongVerb.toString());

    Result cancel = gantry.run("cancel", queued);
    assertEquals(0, cancel.exitCode(), cancel.toString());
    assertTrue(cancel.out().startsWith(queued + "  CANCELLED "), cancel.toString());
    assertEquals(1, gantry.run("wait", "-q", queued).exitCode());

    Result cancelRunning = gantry.run("cancel", first);
    assertEquals(1, cancelRunning.exitCode(), cancelRunning.toString());
    assertTrue(
        cancelRunning
            .err()
            .contains(
                "job "
                    + first
                    + " is RUNNING: its program has started; use 'gantry kill "
                    + first
                    + "'"),
        cancelRunning.toString());
    assertFalse(cancelRunning.err().contains("killJob"), cancelRunning.toString());

    Result timedOut = gantry.run("wait", "--timeout", "1s", first);
    assertEquals(5, timedOut.exitCode(), timedOut.toString());
    assertTrue(
        timedOut
            .err()
            .endsWith("gantry: job " + first + " is still RUNNING after 0:01 (--timeout)\n"),
        timedOut.toString());
    // quiet, the wait is the server's (waitForJob) and still ends at --timeout
    Result quietTimedOut = gantry.run("wait", "-q", "--timeout", "1s", first);
    assertEquals(5, quietTimedOut.exitCode(), quietTimedOut.toString());
    assertTrue(
        quietTimedOut.err().contains("is still RUNNING after 0:01 (--timeout)"),
        quietTimedOut.toString());

    for (String id : new String[] {first, second}) {
      Result kill = gantry.run("kill", id);
      assertEquals(0, kill.exitCode(), kill.toString());
      assertTrue(kill.out().startsWith(id + "  KILLED "), kill.toString());
      assertEquals(1, gantry.run("wait", "-q", id).exitCode());
    }
    Result again = gantry.run("kill", first);
    assertEquals(1, again.exitCode(), again.toString());
    assertTrue(again.err().contains("has already ended (KILLED)"), again.toString());
  }
}
