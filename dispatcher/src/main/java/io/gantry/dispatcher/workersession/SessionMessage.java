package io.gantry.dispatcher.workersession;

import io.gantry.dispatcher.farm.TaskPriority;

/** One task message to submit: the input line for a worker, and its priority. */
public record SessionMessage(String input, TaskPriority priority) {
  public SessionMessage {
    if (input == null || priority == null) {
      throw new IllegalArgumentException("a message needs an input and a priority");
    }
  }
}
