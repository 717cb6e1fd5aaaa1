package io.gantry.staging;

import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.staging.internal.csv.CsvRowReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** Test helpers for reading what staging wrote. */
final class StagedFiles {
  private StagedFiles() {}

  /** Header followed by rows; fields are null for SQL NULL. */
  static List<List<String>> readCsv(Path file) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    try (CsvRowReader reader =
        new CsvRowReader(CompressedFiles.openDecompressed(file), file.toString())) {
      rows.add(reader.header());
      String[] r;
      while ((r = reader.next()) != null) {
        rows.add(Arrays.asList(r));
      }
    }
    return rows;
  }

  /** Names in the directory tree, to show no temporary or partial file was left behind. */
  static List<String> listAll(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    }
  }
}
