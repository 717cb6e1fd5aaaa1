package io.gantry.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;

/**
 * How a command prints a list of records in the three forms it offers: JSON under one key ({@code
 * --json}), CSV with a header row ({@code --csv}, RFC 4180: quotes what needs it, null as empty),
 * or the command's table, with a sentence instead when there is nothing (unless {@code --quiet}).
 * JSON and CSV carry the same row, so a record's fields have one owner.
 */
record RecordsOutput<T>(
    String jsonKey,
    List<String> columns,
    Function<T, Map<String, Object>> row,
    String none,
    Consumer<List<T>> table) {

  void print(Invocation gantry, PrintWriter out, boolean csv, List<T> records) {
    if (gantry.json) {
      JsonOutput.print(out, Map.of(jsonKey, records.stream().map(row).toList()));
    } else if (csv) {
      out.print(CSVFormat.RFC4180.format(columns.toArray()) + "\n");
      for (T r : records) {
        out.print(CSVFormat.RFC4180.format(row.apply(r).values().toArray()) + "\n");
      }
    } else if (records.isEmpty()) {
      if (!gantry.quiet) {
        out.println(none);
      }
    } else {
      table.accept(records);
    }
    out.flush();
  }
}
