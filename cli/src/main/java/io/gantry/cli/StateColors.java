package io.gantry.cli;

import io.gantry.cli.soap.JobState;

/** ANSI colours for job states, so a failed job stands out in a list; plain text when off. */
final class StateColors {
  private static final String RESET = "\033[0m";
  private final boolean enabled;

  StateColors(boolean enabled) {
    this.enabled = enabled;
  }

  /** The state's name, padded to {@code width} before colouring so tables stay aligned. */
  String state(JobState state, int width) {
    String text = String.format("%-" + Math.max(1, width) + "s", state.value());
    if (!enabled) {
      return text;
    }
    return switch (state) {
      case SUCCEEDED -> "\033[32m" + text + RESET;
      case FAILED, KILLED -> "\033[31m" + text + RESET;
      case CANCELLED -> "\033[33m" + text + RESET;
      default -> "\033[36m" + text + RESET;
    };
  }
}
