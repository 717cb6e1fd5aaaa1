package io.gantry.cli;

import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStateFault;

/**
 * The refusal of cancel for a job that runs, or of kill for one that has not started, told in this
 * command line's words: the server names its SOAP operations ("use killJob"), which a user of
 * {@code gantry} cannot type.
 */
final class WrongVerb {
  private WrongVerb() {}

  /**
   * A failure naming {@code gantry COMMAND ID} when the job has not ended (so the other verb
   * applies); otherwise the fault itself, for the usual handling ("has already ended").
   */
  static Exception explain(JobStateFault fault, String jobId, String command, String why) {
    JobState state = fault.getFaultInfo() == null ? null : fault.getFaultInfo().getState();
    if (state == null || JobStates.isFinal(state)) {
      return fault;
    }
    return new CommandFailure(
        ExitCodes.NEGATIVE,
        "job "
            + jobId
            + " is "
            + state.value()
            + ": "
            + why
            + "; use 'gantry "
            + command
            + " "
            + jobId
            + "'");
  }
}
