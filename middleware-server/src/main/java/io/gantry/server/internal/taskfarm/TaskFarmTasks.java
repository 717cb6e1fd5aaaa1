package io.gantry.server.internal.taskfarm;

import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.jsdl.farm.TaskFarmSpec;
import io.gantry.jsdl.farm.TaskFile;
import io.gantry.jsdl.farm.TaskInstance;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.JobDirectoryReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A farm's tasks, numbered 1, 2, ... in the order the description makes them: a sweep's from the
 * description alone, a task file's from the CSV the stage-in produced (read through {@link
 * JobDirectoryReader}, which follows no link the job may have planted; blocked gzip recognised by
 * its magic bytes). A file with no data row, a missing column, an unknown priority or more rows
 * than the server's limit fails the job with the file and line.
 */
final class TaskFarmTasks {
  private TaskFarmTasks() {}

  static List<FarmTask> of(TaskFarmSpec spec, Path jobDirectory, long maxTasks) throws JobFailure {
    List<TaskInstance> instances =
        spec.sweep() != null ? spec.sweepTasks() : fromFile(spec, jobDirectory, maxTasks);
    List<FarmTask> tasks = new ArrayList<>(instances.size());
    long id = 1;
    for (TaskInstance t : instances) {
      tasks.add(
          new FarmTask(
              id++,
              t.priority() == TaskFarmSpec.Priority.HIGH ? TaskPriority.HIGH : TaskPriority.NORMAL,
              t.executable(),
              t.arguments(),
              t.environment(),
              t.inputs()));
    }
    return tasks;
  }

  private static List<TaskInstance> fromFile(TaskFarmSpec spec, Path jobDirectory, long maxTasks)
      throws JobFailure {
    TaskFile file = spec.taskFile();
    String name = file.fileName();
    try (InputStream in =
            decompressed(Channels.newInputStream(JobDirectoryReader.open(jobDirectory, name)));
        CSVParser csv =
            CSVParser.builder()
                .setReader(
                    new InputStreamReader(
                        in,
                        StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)))
                .setFormat(CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())
                .get()) {
      Map<String, Integer> header = csv.getHeaderMap();
      List<String> needed = new ArrayList<>();
      file.bindings().forEach(b -> needed.add(b.column()));
      if (file.priorityColumn() != null) {
        needed.add(file.priorityColumn());
      }
      // databases differ in the case of unquoted column labels (H2 upper, PostgreSQL lower)
      Map<String, String> actual = new HashMap<>();
      for (String column : needed) {
        String found = header.containsKey(column) ? column : null;
        for (String h : header.keySet()) {
          if (found == null && h.equalsIgnoreCase(column)) {
            found = h;
          }
        }
        if (found == null) {
          throw new JobFailure(
              name
                  + ":1: the task file has no column '"
                  + column
                  + "' (it has "
                  + header.keySet()
                  + ")");
        }
        actual.put(column, found);
      }
      List<TaskInstance> tasks = new ArrayList<>();
      for (CSVRecord r : csv) {
        if (tasks.size() >= maxTasks) {
          throw new JobFailure(
              name
                  + ":"
                  + r.getParser().getCurrentLineNumber()
                  + ": more than this server's limit of "
                  + maxTasks
                  + " tasks per farm (farm.max-tasks)");
        }
        tasks.add(spec.fileTask(row(r, actual, name), priority(spec, r, actual, name)));
      }
      if (tasks.isEmpty()) {
        throw new JobFailure(name + ": the task file has no data row, so the farm has no task");
      }
      return tasks;
    } catch (IOException | IllegalStateException | java.io.UncheckedIOException e) {
      throw new JobFailure("task file " + name + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, String> row(CSVRecord r, Map<String, String> columns, String name)
      throws JobFailure {
    Map<String, String> row = new HashMap<>();
    for (Map.Entry<String, String> column : columns.entrySet()) {
      String c = column.getValue();
      if (!r.isSet(c)) {
        throw new JobFailure(
            name + ":" + r.getParser().getCurrentLineNumber() + ": too few fields");
      }
      String v = r.get(c);
      if (v.indexOf('\0') >= 0) {
        throw new JobFailure(
            name + ":" + r.getParser().getCurrentLineNumber() + ": column " + c + " holds NUL");
      }
      row.put(column.getKey(), v);
    }
    return row;
  }

  private static TaskFarmSpec.Priority priority(
      TaskFarmSpec spec, CSVRecord r, Map<String, String> columns, String name) throws JobFailure {
    String column = spec.taskFile().priorityColumn();
    if (column == null) {
      return spec.priority();
    }
    String v = r.get(columns.get(column)).strip();
    return switch (v) {
      case "high" -> TaskFarmSpec.Priority.HIGH;
      case "normal", "" -> TaskFarmSpec.Priority.NORMAL;
      default ->
          throw new JobFailure(
              name
                  + ":"
                  + r.getParser().getCurrentLineNumber()
                  + ": priority must be high or normal, not '"
                  + v
                  + "'");
    };
  }

  /** Blocked gzip (or any gzip) by its magic bytes, else the bytes as they are. */
  private static InputStream decompressed(InputStream raw) throws IOException {
    BufferedInputStream in = new BufferedInputStream(raw, 65536);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    return b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in, 65536) : in;
  }
}
