package io.gantry.dispatcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SbatchCommandTest {
  private static final Path SCRIPT = Path.of("/srv/gantry/slurm/gantry-batch.sh");

  private static LaunchSpec spec(String executable, String... args) {
    return LaunchSpec.builder("job-7", ProgramKind.POSIX, executable)
        .arguments(args)
        .workingDirectory(Path.of("/jobs/job-7/-x"))
        .output(Path.of("/jobs/job-7/out %j.txt"), Path.of("/jobs/job-7/err.txt"))
        .wallTimeLimit(Duration.ofSeconds(90))
        .build();
  }

  @Test
  void theJobsProgramAndArgumentsFollowTheFixedScriptAfterTheEndOfOptions() {
    List<String> argv =
        SbatchCommand.argv(
            "sbatch",
            spec("prog", "a b; rm -rf /", "$(id)", "--uid=0"),
            BatchResources.none(),
            SCRIPT,
            null,
            List.of("prog", "a b; rm -rf /", "$(id)", "--uid=0"));
    int end = argv.indexOf("--");
    assertEquals(
        List.of(
            SCRIPT.toString(),
            "/jobs/job-7/out %j.txt",
            "/jobs/job-7/err.txt",
            "prog",
            "a b; rm -rf /",
            "$(id)",
            "--uid=0"),
        argv.subList(end + 1, argv.size()));
    // Before "--" only options Gantry wrote, each one argument of the form --name=value.
    assertTrue(argv.subList(1, end).stream().allMatch(a -> a.startsWith("--")), argv.toString());
    assertTrue(
        argv.subList(1, end).stream().noneMatch(a -> a.startsWith("--uid")), argv.toString());
    assertTrue(
        argv.contains("--chdir=/jobs/job-7/-x"), "a directory starting with '-' stays a value");
    assertTrue(
        argv.contains("--output=/dev/null"),
        "Slurm never sees the job's file names, where it would expand %j");
  }

  @Test
  void resourcesMapOntoSlurmOptions() {
    List<String> argv =
        SbatchCommand.argv(
            "sbatch",
            spec("prog"),
            new BatchResources(2, 4096L, true, "batch", "risk-desk"),
            SCRIPT,
            new SbatchCommand.RunAs("alice", "alice"),
            List.of("prog"));
    assertTrue(
        argv.containsAll(
            List.of(
                "--parsable",
                "--no-requeue",
                "--ntasks=1",
                "--ntasks-per-node=2",
                "--time=2",
                "--mem=4096",
                "--exclusive",
                "--partition=batch",
                "--account=risk-desk",
                "--uid=alice",
                "--gid=alice",
                "--job-name=gantry-job-7")),
        argv.toString());
  }

  @Test
  void wallTimeIsRoundedUpToWholeMinutes() {
    assertEquals(1, SbatchCommand.minutes(Duration.ofSeconds(1)));
    assertEquals(1, SbatchCommand.minutes(Duration.ofSeconds(60)));
    assertEquals(2, SbatchCommand.minutes(Duration.ofSeconds(61)));
    assertEquals(30, SbatchCommand.minutes(Duration.ofMinutes(30)));
  }

  @Test
  void aPartitionOrAccountThatIsNotAPlainNameIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new BatchResources(null, null, false, "batch --uid=0", null));
    assertTrue(e.getMessage().contains("partition 'batch --uid=0'"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> new BatchResources(null, null, false, null, "-A"));
  }

  @Test
  void theBatchScriptHoldsNoJobText() {
    assertTrue(BatchScript.TEXT.contains("exec \"$@\""));
    assertTrue(!BatchScript.TEXT.contains("job-7"));
  }

  @Test
  void slurmStatesAreReadFromScontrolAndTheCompletionLog() {
    SlurmState s =
        SlurmState.fromScontrol(
                "JobId=12 JobName=gantry-x JobState=FAILED Reason=NonZeroExitCode"
                    + " ExitCode=3:0 NodeList=n[1-2] WorkDir=/j JobState=COMPLETED ExitCode=0:0")
            .orElseThrow();
    assertEquals("FAILED", s.state());
    assertEquals(3, s.exitStatus());
    assertTrue(s.isFinal());
    SlurmState c =
        SlurmState.fromSacct("12|CANCELLED by 0|0:15|n1\n12.batch|CANCELLED|0:15|n1\n", "12")
            .orElseThrow();
    assertEquals("CANCELLED", c.state());
    assertEquals(143, c.exitStatus());
    assertTrue(SlurmState.fromSacct("", "12").isEmpty());
  }
}
