package io.gantry.jsdl.farm;

import java.util.List;
import java.util.Map;

/**
 * One task as the job description makes it: the program, its arguments and the variables set for
 * it, and its inputs (the values that set it apart, in the order of {@link
 * TaskFarmSpec#inputNames()}).
 */
public record TaskInstance(
    String executable,
    List<String> arguments,
    Map<String, String> environment,
    List<String> inputs,
    TaskFarmSpec.Priority priority) {
  public TaskInstance {
    arguments = List.copyOf(arguments);
    environment = Map.copyOf(environment);
    inputs = List.copyOf(inputs);
  }
}
