package io.gantry.server.internal.taskfarm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.FarmJournal;
import io.gantry.dispatcher.farm.FarmOptions;
import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskEnd;
import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.dispatcher.farm.TaskResult;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A farm's outcome from its dispatcher and its launch, with a launch that never exits by itself.
 */
class FarmRunningJobTest {
  private static final FarmTask TASK =
      new FarmTask(1, TaskPriority.NORMAL, "/bin/true", List.of(), Map.of(), List.of("1"));

  @TempDir Path dir;

  @Test
  void aCompleteFarmWhoseLaunchHangsIsStoppedAndSucceeds() throws Exception {
    // Open MPI under --enable-recovery may never exit after a rank on another host died
    try (FarmJournal journal = FarmJournal.open(dir.resolve("journal"))) {
      journal.append(
          List.of(new TaskResult(1, TaskEnd.EXITED, 0, 1, "n1", Instant.now(), 5, "done")));
    }
    HangingLaunch launch = new HangingLaunch();
    AtomicBoolean written = new AtomicBoolean();
    FarmDispatcher dispatcher = dispatcher();
    FarmRunningJob job =
        new FarmRunningJob(
            "j1", dispatcher, launch, Duration.ofSeconds(1), r -> written.set(true), () -> {});

    JobOutcome outcome = job.onExit().get(20, TimeUnit.SECONDS);

    assertTrue(launch.terminated.get(), "the launch was stopped once no launcher was connected");
    assertEquals(0, outcome.exitStatus(), outcome.toString());
    assertFalse(outcome.killed(), outcome.toString());
    assertEquals("farm: 1 tasks final, 1 succeeded, 0 failed", outcome.detail());
    assertEquals(0, outcome.failedTasks(), "a complete farm's count, for the job's status");
    assertTrue(written.get(), "the result file was written");
  }

  @Test
  void aKillBeforeTheFarmIsCompleteIsAKill() throws Exception {
    HangingLaunch launch = new HangingLaunch();
    FarmRunningJob job =
        new FarmRunningJob("j2", dispatcher(), launch, Duration.ofSeconds(1), r -> {}, () -> {});

    job.terminate(Duration.ofSeconds(1));
    JobOutcome outcome = job.onExit().get(20, TimeUnit.SECONDS);

    assertTrue(outcome.killed(), outcome.toString());
    assertTrue(
        outcome.detail().contains("the launchers ended with 1 of 1 tasks unfinished"),
        outcome.detail());
    assertNull(outcome.failedTasks(), "no count for a farm whose tasks are not all final");
  }

  private FarmDispatcher dispatcher() throws Exception {
    return FarmDispatcher.start(
        "j",
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        FarmDispatcher.newSecret(),
        List.of(TASK),
        1,
        FarmOptions.defaults(),
        FarmJournal.open(dir.resolve("journal")));
  }

  /** A launch that runs until it is terminated, then ends killed by SIGTERM. */
  private static final class HangingLaunch implements RunningJob {
    final AtomicBoolean terminated = new AtomicBoolean();
    final CompletableFuture<JobOutcome> exit = new CompletableFuture<>();
    final Instant started = Instant.now();

    @Override
    public String jobId() {
      return "j";
    }

    @Override
    public long pid() {
      return 1;
    }

    @Override
    public CompletableFuture<JobOutcome> onExit() {
      return exit;
    }

    @Override
    public void terminate(Duration grace) {
      terminated.set(true);
      exit.complete(new JobOutcome("j", 143, false, true, started, Instant.now(), 15, null));
    }
  }
}
