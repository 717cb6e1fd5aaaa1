package io.gantry.server.internal.taskfarm;

import io.gantry.dispatcher.farm.FarmResultsCsv;
import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskEnd;
import io.gantry.dispatcher.farm.TaskResult;
import io.gantry.staging.JobDirectoryReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * What a rerun of a farm's failed tasks takes over from the job it reruns (docs/task-farms.md,
 * "Rerunning the failed tasks"): every row of that job's result file whose task succeeded and is,
 * by id and inputs, a task of the new farm (a task file staged again may hold other rows: a task
 * whose inputs changed runs again). Each becomes a final result of the new farm before it starts,
 * with {@code attempts} 0 (handed to no launcher of this job) and the original's host, start,
 * duration and output, so the new result file holds every task's final row.
 */
final class CarriedTasks {
  private CarriedTasks() {}

  /**
   * @param directory the rerun job's directory
   * @param resultFile its result file's name there
   */
  static List<TaskResult> from(
      Path directory, String resultFile, List<String> inputNames, List<FarmTask> tasks)
      throws IOException {
    Map<Long, FarmTask> byId =
        tasks.stream().collect(Collectors.toMap(FarmTask::id, Function.identity()));
    List<String> header = FarmResultsCsv.header(inputNames);
    int n = inputNames.size();
    List<TaskResult> carried = new ArrayList<>();
    try (Reader in =
        Channels.newReader(
            JobDirectoryReader.open(directory, resultFile), StandardCharsets.UTF_8)) {
      List<CSVRecord> records = CSVFormat.RFC4180.parse(in).getRecords();
      if (records.isEmpty() || !records.get(0).toList().equals(header)) {
        throw new IOException(
            resultFile + " does not start with the header " + String.join(",", header));
      }
      for (CSVRecord r : records.subList(1, records.size())) {
        if (r.size() != header.size()) {
          throw new IOException(
              resultFile + " line " + r.getRecordNumber() + " has " + r.size() + " fields");
        }
        FarmTask task = byId.get(Long.parseLong(r.get(0)));
        if (task == null
            || !"succeeded".equals(r.get(n + 1))
            || !task.inputs().equals(r.toList().subList(1, n + 1))) {
          continue;
        }
        carried.add(
            new TaskResult(
                task.id(),
                TaskEnd.EXITED,
                0,
                0,
                r.get(n + 5),
                Instant.parse(r.get(n + 6)),
                Math.round(Double.parseDouble(r.get(n + 7)) * 1000),
                r.get(n + 8)));
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IOException(resultFile + " has a malformed row: " + e.getMessage(), e);
    } catch (JobDirectoryReader.RefusedFileException e) {
      throw new IOException(resultFile + " " + e.getReason(), e);
    }
    return carried;
  }
}
