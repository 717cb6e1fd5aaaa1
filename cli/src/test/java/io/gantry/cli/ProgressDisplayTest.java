package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The two renderings of wait's progress: redrawn in place on a terminal, one line per change
 * elsewhere.
 */
class ProgressDisplayTest {
  private static final String CR_CLEAR = "\r\033[K";
  private final StringWriter text = new StringWriter();

  private static JobStatus job(JobState state, String phase) {
    JobStatus job = new JobStatus();
    job.setJobId("j");
    job.setState(state);
    job.setPhase(phase);
    return job;
  }

  private void showSequence(ProgressDisplay display) {
    display.show(job(JobState.QUEUED, null), Duration.ofSeconds(0));
    display.show(
        job(JobState.STAGING_IN, "stage-in: sql group 2 of 3, 1200 rows, 4 MB"),
        Duration.ofSeconds(1));
    display.show(
        job(JobState.STAGING_IN, "stage-in: sql group 2 of 3, 1200 rows, 4 MB"),
        Duration.ofSeconds(2));
    display.show(job(JobState.RUNNING, "mpirun: 4 ranks"), Duration.ofSeconds(75));
    display.show(job(JobState.SUCCEEDED, null), Duration.ofSeconds(3725));
    display.finish();
  }

  @Test
  void onATerminalEveryPollRedrawsTheSameLineAndTheLastStaysVisible() {
    showSequence(new ProgressDisplay(new PrintWriter(text), true, new StateColors(false), 80));
    assertEquals(
        CR_CLEAR
            + "0:00  QUEUED"
            + CR_CLEAR
            + "0:01  STAGING_IN  stage-in: sql group 2 of 3, 1200 rows, 4 MB"
            + CR_CLEAR
            + "0:02  STAGING_IN  stage-in: sql group 2 of 3, 1200 rows, 4 MB"
            + CR_CLEAR
            + "1:15  RUNNING  mpirun: 4 ranks"
            + CR_CLEAR
            + "1:02:05  SUCCEEDED"
            + System.lineSeparator(),
        text.toString());
  }

  @Test
  void elsewhereALineIsWrittenOnlyWhenTheStateOrPhaseChanges() {
    showSequence(new ProgressDisplay(new PrintWriter(text), false, new StateColors(true), 80));
    String n = System.lineSeparator();
    assertEquals(
        "0:00  QUEUED"
            + n
            + "0:01  STAGING_IN  stage-in: sql group 2 of 3, 1200 rows, 4 MB"
            + n
            + "1:15  RUNNING  mpirun: 4 ranks"
            + n
            + "1:02:05  SUCCEEDED"
            + n,
        text.toString());
  }

  @Test
  void onATerminalTheLineIsCutToTheWidthSoThatItNeverWraps() {
    ProgressDisplay display =
        new ProgressDisplay(new PrintWriter(text), true, new StateColors(false), 30);
    display.show(
        job(JobState.STAGING_IN, "stage-in: sql group 2 of 3, 1200 rows, 4 MB"),
        Duration.ofSeconds(1));
    assertEquals(CR_CLEAR + "0:01  STAGING_IN  stage-in: …", text.toString());
  }

  @Test
  void coloursMarkOnlyTheStateWord() {
    ProgressDisplay display =
        new ProgressDisplay(new PrintWriter(text), true, new StateColors(true), 80);
    display.show(job(JobState.FAILED, null), Duration.ofSeconds(1));
    assertEquals(CR_CLEAR + "0:01  \033[31mFAILED\033[0m", text.toString());
  }

  @Test
  void clearingBeforeTheJobsOwnOutputLeavesNoHalfLine() {
    ProgressDisplay display =
        new ProgressDisplay(new PrintWriter(text), true, new StateColors(false), 80);
    display.show(job(JobState.RUNNING, null), Duration.ofSeconds(1));
    display.clear();
    display.finish();
    assertEquals(CR_CLEAR + "0:01  RUNNING" + CR_CLEAR, text.toString());
  }
}
