package io.gantry.testing.cluster;

import java.util.List;

/** What a finished command printed and how it ended. */
public record CommandResult(List<String> command, int exitCode, String stdout, String stderr) {

  public boolean succeeded() {
    return exitCode == 0;
  }

  /** Returns this result, or throws with the command, its exit code and both outputs. */
  public CommandResult orThrow() {
    if (exitCode != 0) {
      throw new IllegalStateException(
          "command "
              + command
              + " exited with "
              + exitCode
              + "\nstdout: "
              + stdout
              + "\nstderr: "
              + stderr);
    }
    return this;
  }
}
