package io.gantry.dispatcher.farm;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One task of a farm: a program run once from an argument array, never through a shell.
 *
 * @param id the task's number in its farm, unique there (1, 2, ...); results and the journal name
 *     tasks by it
 * @param priority its place in the work queue
 * @param executable the program (a path, or a name looked up in PATH by the launcher)
 * @param arguments its arguments, each one argument
 * @param environment variables set for this task on top of the launcher's environment
 * @param inputs the values that make this task differ from the others (sweep values, a CSV row), in
 *     the order of the farm's input names; they are echoed in the result row
 */
public record FarmTask(
    long id,
    TaskPriority priority,
    String executable,
    List<String> arguments,
    Map<String, String> environment,
    List<String> inputs) {

  public FarmTask {
    if (id < 1) {
      throw new IllegalArgumentException("task ids start at 1, was " + id);
    }
    Objects.requireNonNull(priority, "priority");
    if (executable == null || executable.isEmpty() || executable.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("task " + id + ": executable must be non-empty text");
    }
    arguments = List.copyOf(arguments);
    environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
    inputs = List.copyOf(inputs);
    for (String a : arguments) {
      if (a.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("task " + id + ": an argument contains NUL");
      }
    }
    for (Map.Entry<String, String> e : environment.entrySet()) {
      if (!e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*") || e.getValue().indexOf('\0') >= 0) {
        throw new IllegalArgumentException(
            "task " + id + ": invalid environment variable '" + e.getKey() + "'");
      }
    }
  }
}
