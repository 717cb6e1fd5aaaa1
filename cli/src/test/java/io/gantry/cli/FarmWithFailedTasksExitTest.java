package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import org.junit.jupiter.api.Test;

/**
 * A task farm that SUCCEEDED with failed tasks is not a clean success for {@code wait}: exit 6, and
 * its status line counts them. (TaskFarmJobsTest in middleware-server shows the server reports the
 * count; this is what the command makes of it.)
 */
class FarmWithFailedTasksExitTest {
  private static JobStatus job(JobState state, Integer failedTasks) {
    JobStatus job = new JobStatus();
    job.setJobId("farm1");
    job.setState(state);
    job.setFailedTasks(failedTasks);
    return job;
  }

  @Test
  void aFarmWithFailedTasksExitsSixAndSaysHowMany() {
    JobStatus partial = job(JobState.SUCCEEDED, 3);
    assertEquals(6, WaitCommand.exitCode(partial));
    String line = StatusLine.of(partial, new StateColors(false));
    assertTrue(line.contains("failed tasks: 3"), line);
  }

  @Test
  void aCleanFarmAndAnOrdinaryJobExitZero() {
    assertEquals(0, WaitCommand.exitCode(job(JobState.SUCCEEDED, 0)));
    assertEquals(0, WaitCommand.exitCode(job(JobState.SUCCEEDED, null)));
    String line = StatusLine.of(job(JobState.SUCCEEDED, 0), new StateColors(false));
    assertFalse(line.contains("failed tasks"), line);
  }

  @Test
  void aFailedJobStillExitsOne() {
    assertEquals(1, WaitCommand.exitCode(job(JobState.FAILED, null)));
    assertEquals(1, WaitCommand.exitCode(job(JobState.KILLED, 2)));
  }
}
