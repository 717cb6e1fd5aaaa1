package io.gantry.jsdl.farm;

import java.util.List;
import java.util.Map;

/**
 * The application every task of a farm runs, as the job description writes it (its
 * POSIXApplication): a sweep replaces some of these values for each task, a task file appends
 * arguments and sets variables.
 *
 * @param executable the program
 * @param arguments its Argument elements, in order
 * @param environment its Environment elements, in order (name, value)
 */
public record TaskTemplate(
    String executable, List<String> arguments, List<Map.Entry<String, String>> environment) {
  public TaskTemplate {
    arguments = List.copyOf(arguments);
    environment = List.copyOf(environment);
  }
}
