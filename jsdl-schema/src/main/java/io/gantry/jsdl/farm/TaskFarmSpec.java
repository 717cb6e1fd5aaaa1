package io.gantry.jsdl.farm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task farm as the job description asks for it: the application run once per task, where the
 * tasks come from (a GFD.149 sweep, counted at validation, or a CSV file the stage-in produces),
 * and the farm's settings.
 *
 * @param template the application, from the job's POSIXApplication
 * @param sweep the parameter sweep, or null when the tasks come from {@code taskFile}
 * @param taskFile the CSV task source, or null when the tasks come from {@code sweep}
 * @param launchers launchers to start, or 0: one per allocated core
 * @param priority the tasks' priority (a task file's priority column may set it per row)
 * @param retries further attempts for a task whose launcher disappeared while running it
 * @param taskWallTimeSeconds a task's wall time, 0 for none
 * @param outputBytes bytes of each task's standard output kept for its result (the last ones)
 * @param resultFileName the result CSV's name in the job directory
 */
public record TaskFarmSpec(
    TaskTemplate template,
    ParameterSweep sweep,
    TaskFile taskFile,
    int launchers,
    Priority priority,
    int retries,
    long taskWallTimeSeconds,
    int outputBytes,
    String resultFileName) {

  /** A task's place in the work queue: every ready HIGH task before any NORMAL one. */
  public enum Priority {
    HIGH,
    NORMAL
  }

  /** Default result file name. */
  public static final String DEFAULT_RESULT_FILE = "task-results.csv";

  public TaskFarmSpec {
    if ((sweep == null) == (taskFile == null)) {
      throw new IllegalArgumentException("a farm has exactly one task source");
    }
  }

  /** The tasks of a sweep, known from the description alone; 0 for a task file. */
  public long sweepTaskCount() {
    return sweep == null ? 0 : sweep.taskCount();
  }

  /** The input columns of the result file: a sweep's assignments, or a task file's bindings. */
  public List<String> inputNames() {
    List<String> names = new ArrayList<>();
    if (sweep != null) {
      collect(sweep, names);
    } else {
      taskFile.bindings().forEach(b -> names.add(b.column()));
    }
    return names;
  }

  private static void collect(ParameterSweep s, List<String> names) {
    s.assignments().forEach(a -> names.add(a.inputName()));
    s.nested().forEach(n -> collect(n, names));
  }

  /**
   * Every task of the sweep, in sweep order: the outer sweep's first step with all of its nested
   * sweeps' steps, then its second step, and so on.
   */
  public List<TaskInstance> sweepTasks() {
    if (sweep == null) {
      throw new IllegalStateException("the tasks come from " + taskFile.fileName());
    }
    List<String> names = inputNames();
    List<TaskInstance> tasks = new ArrayList<>((int) Math.min(sweep.taskCount(), 1 << 20));
    String[] inputs = new String[names.size()];
    Arrays.fill(inputs, "");
    expand(sweep, new Values(template), inputs, names, tasks);
    return tasks;
  }

  /** One task per row: {@code row} maps the task file's column names to the row's values. */
  public TaskInstance fileTask(Map<String, String> row, Priority rowPriority) {
    List<String> args = new ArrayList<>(template.arguments());
    Map<String, String> env = new LinkedHashMap<>();
    template.environment().forEach(e -> env.put(e.getKey(), e.getValue()));
    List<String> inputs = new ArrayList<>();
    for (TaskFile.Binding b : taskFile.bindings()) {
      String v = row.get(b.column());
      inputs.add(v);
      if (b.isArgument()) {
        args.add(v);
      } else {
        env.put(b.variable(), v);
      }
    }
    return new TaskInstance(template.executable(), args, env, inputs, rowPriority);
  }

  private void expand(
      ParameterSweep s,
      Values values,
      String[] inputs,
      List<String> names,
      List<TaskInstance> out) {
    for (int step = 0; step < s.steps(); step++) {
      Values here = values.copy();
      String[] in = inputs.clone();
      for (SweepAssignment a : s.assignments()) {
        String v = a.values().get(step);
        a.targets().forEach(t -> here.set(t, v));
        in[names.indexOf(a.inputName())] = v;
      }
      if (s.nested().isEmpty()) {
        out.add(here.task(List.of(in), priority));
      } else {
        for (ParameterSweep n : s.nested()) {
          expand(n, here, in, names, out);
        }
      }
    }
  }

  /** The template's values as one task sees them. */
  private static final class Values {
    private String executable;
    private final String[] arguments;
    private final String[][] environment;

    Values(TaskTemplate t) {
      executable = t.executable();
      arguments = t.arguments().toArray(new String[0]);
      environment = new String[t.environment().size()][];
      for (int i = 0; i < environment.length; i++) {
        environment[i] =
            new String[] {t.environment().get(i).getKey(), t.environment().get(i).getValue()};
      }
    }

    private Values(Values o) {
      executable = o.executable;
      arguments = o.arguments.clone();
      environment = new String[o.environment.length][];
      for (int i = 0; i < environment.length; i++) {
        environment[i] = o.environment[i].clone();
      }
    }

    Values copy() {
      return new Values(this);
    }

    void set(SweepTarget t, String v) {
      switch (t.kind()) {
        case EXECUTABLE -> executable = v;
        case ARGUMENT -> arguments[t.index()] = v;
        case ENVIRONMENT -> environment[t.index()][1] = v;
      }
    }

    TaskInstance task(List<String> inputs, Priority p) {
      Map<String, String> env = new LinkedHashMap<>();
      for (String[] e : environment) {
        env.put(e[0], e[1]);
      }
      return new TaskInstance(executable, List.of(arguments), env, inputs, p);
    }
  }
}
