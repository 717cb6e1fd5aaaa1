package io.gantry.server.internal.jobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JobStateTest {
  @Test
  void theHappyPathIsLegalStepByStep() {
    List<JobState> path =
        List.of(
            JobState.QUEUED,
            JobState.STAGING_IN,
            JobState.STAGED,
            JobState.RUNNING,
            JobState.STAGING_OUT,
            JobState.SUCCEEDED);
    for (int i = 0; i + 1 < path.size(); i++) {
      assertTrue(path.get(i).canMoveTo(path.get(i + 1)), path.get(i) + " -> " + path.get(i + 1));
    }
  }

  @Test
  void finalStatesHaveNoWayOutButARetriedStageOut() {
    for (JobState s : JobState.values()) {
      if (s == JobState.FAILED) {
        assertEquals(java.util.Set.of(JobState.STAGING_OUT), s.successors());
      } else {
        assertEquals(s.isFinal(), s.successors().isEmpty(), s.toString());
      }
    }
  }

  @Test
  void everyUnfinishedStateCanFail() {
    JobState.unfinished().forEach(s -> assertTrue(s.canMoveTo(JobState.FAILED), s.toString()));
  }

  @Test
  void cancelIsForJobsWhoseProgramHasNotStartedAndKillForTheRest() {
    for (JobState s : JobState.unfinished()) {
      assertEquals(!s.hasStartedProgram(), s.canMoveTo(JobState.CANCELLED), s + " -> CANCELLED");
      assertEquals(s.hasStartedProgram(), s.canMoveTo(JobState.KILLED), s + " -> KILLED");
    }
  }

  @Test
  void stepsCannotBeSkippedOrReversed() {
    assertFalse(JobState.QUEUED.canMoveTo(JobState.RUNNING));
    assertFalse(JobState.RUNNING.canMoveTo(JobState.QUEUED));
    assertFalse(JobState.STAGED.canMoveTo(JobState.SUCCEEDED));
    assertFalse(JobState.QUEUED.canMoveTo(JobState.QUEUED));
  }
}
