package io.gantry.jsdl.farm;

import java.util.List;

/**
 * Gantry's TasksFromFile: one task per data row of a CSV file in the job directory, read once the
 * stage-in has produced it.
 *
 * @param fileName the file, relative to the job directory
 * @param bindings what each bound column does, in document order
 * @param priorityColumn the column holding each row's priority ({@code high} or {@code normal}), or
 *     null: every row has the farm's priority
 */
public record TaskFile(String fileName, List<Binding> bindings, String priorityColumn) {
  public TaskFile {
    bindings = List.copyOf(bindings);
  }

  /**
   * A column bound to the task: appended as an argument ({@code variable} null) or set as the
   * environment variable {@code variable}.
   */
  public record Binding(String column, String variable) {
    public boolean isArgument() {
      return variable == null;
    }
  }
}
