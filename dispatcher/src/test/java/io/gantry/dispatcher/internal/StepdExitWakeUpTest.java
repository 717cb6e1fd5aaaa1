package io.gantry.dispatcher.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.DetachedSupervision;
import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end of a job whose supervisor is this launcher's child is seen when the supervisor exits, not
 * at the next poll of its status file: with the poll an hour apart, the end still comes back (it
 * used to be up to a poll interval late, most of a trivial job's overhead).
 */
class StepdExitWakeUpTest {
  private static final Path STEPD =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-stepd");

  @TempDir Path jobDir;
  @TempDir Path statusDir;

  @Test
  void aChildSupervisorsExitIsTheJobsEndWithoutWaitingForThePoll() throws Exception {
    assertTrue(Files.isExecutable(STEPD), "build the node programs first: " + STEPD);
    StepdSupervisor supervisor =
        new StepdSupervisor(
            new DetachedSupervision(STEPD, statusDir.resolve("supervisor")), Duration.ofHours(1));
    try {
      LaunchSpec spec =
          LaunchSpec.builder("wake-" + System.nanoTime(), ProgramKind.POSIX, "/bin/sh")
              .workingDirectory(jobDir)
              .output(jobDir.resolve("stdout.txt"), jobDir.resolve("stderr.txt"))
              .build();
      RunningJob job =
          supervisor.start(
              spec,
              List.of("/bin/sh", "-c", "sleep 0.3; exit 3"),
              Map.of("PATH", "/usr/bin:/bin"),
              Duration.ofSeconds(1),
              0);
      // the first poll runs at once, while the program still sleeps; the next is an hour away
      JobOutcome outcome = job.onExit().get(30, TimeUnit.SECONDS);
      assertEquals(3, outcome.exitCode().getAsInt(), outcome.describe());
    } finally {
      supervisor.close();
    }
  }
}
