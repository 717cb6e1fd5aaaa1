package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit --hold/--after}, {@code status} and {@code list} saying what a job waits for,
 * {@code release}, and the refusals of {@code hold}, {@code release} and {@code retry-stage-out}
 * for jobs they do not apply to.
 */
@ExtendWith(CliServers.Plain.class)
class DependenciesAndHoldTest {
  @TempDir Path dir;

  @Test
  void aHeldJobAndOneAfterItWaitSayWhyAndRunOnceReleased(GantryTestServer server) throws Exception {
    GantryRun gantry = new GantryRun(server.baseUrl());
    Path job = TestJobs.posix(dir, "quick", "/bin/true");
    Result held = gantry.run("submit", "-q", "--hold", job.toString());
    assertEquals(0, held.exitCode(), held.toString());
    String first = held.out().strip();
    Result after = gantry.run("submit", "-q", "--after", first, job.toString());
    assertEquals(0, after.exitCode(), after.toString());
    String second = after.out().strip();
    // --after-start writes gx:AfterStart: it waits until the first job's program has started
    Result streaming = gantry.run("submit", "-q", "--after-start", first, job.toString());
    assertEquals(0, streaming.exitCode(), streaming.toString());
    String third = streaming.out().strip();

    Result status = gantry.run("status", first, second);
    assertTrue(status.out().contains("reason: JobHeldUser (held by local)"), status.toString());
    assertTrue(status.out().contains("reason: Dependency(after:" + first + ")"), status.toString());
    Result waitsForStart = gantry.run("status", third);
    assertTrue(
        waitsForStart.out().contains("reason: Dependency(afterstart:" + first + ")"),
        waitsForStart.toString());
    Result list = gantry.run("list", "--state", "QUEUED");
    assertTrue(list.out().contains("Dependency(after:" + first + ")"), list.toString());
    Result definition = gantry.run("definition", second);
    assertTrue(
        definition.out().contains(first), "the dependency is in the document: " + definition);

    Result released = gantry.run("release", first);
    assertEquals(0, released.exitCode(), released.toString());
    assertEquals(0, gantry.run("wait", "-q", first).exitCode());
    assertEquals(0, gantry.run("wait", "-q", second).exitCode());
    assertEquals(0, gantry.run("wait", "-q", third).exitCode());

    Result again = gantry.run("release", first);
    assertEquals(1, again.exitCode(), again.toString());
    assertTrue(again.err().contains("is not held"), again.toString());
    Result hold = gantry.run("hold", second);
    assertEquals(1, hold.exitCode(), hold.toString());
    Result retry = gantry.run("retry-stage-out", second);
    assertEquals(1, retry.exitCode(), retry.toString());
    assertTrue(retry.err().contains("only a job whose program succeeded"), retry.toString());
  }

  @Test
  void aDependencyOnAnUnknownJobIsRefusedAtSubmission(GantryTestServer server) throws Exception {
    GantryRun gantry = new GantryRun(server.baseUrl());
    Path job = TestJobs.posix(dir, "quick", "/bin/true");
    String unknown = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    Result refused = gantry.run("submit", "--after-any", unknown, job.toString());
    assertEquals(1, refused.exitCode(), refused.toString());
    assertTrue(refused.err().contains("no job " + unknown + " for user local"), refused.toString());
  }
}
