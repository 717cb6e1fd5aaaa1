package io.gantry.staging.internal.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.staging.internal.bgzf.BlockGzipWriter;
import io.gantry.staging.internal.bgzf.GzipMemberReader;
import io.gantry.staging.internal.csv.CsvRowReader;
import io.gantry.staging.internal.csv.CsvRowWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz tests of the staged-file formats (docs/reliability.md): the CSV and blocked-gzip readers and
 * writers. Without JAZZER_FUZZ each runs its kept inputs
 * (src/test/resources/io/gantry/staging/internal/fuzz/StagedFileFuzzTestInputs/METHOD/) once; with
 * JAZZER_FUZZ=1 Jazzer mutates them. Bad input may only end in an IOException (which names the
 * file); anything else escaping, or a round trip that changes a value, is a finding.
 */
class StagedFileFuzzTest {

  /** Rows of strings and NULLs written as CSV, maybe blocked gzip, read back exactly. */
  @FuzzTest(maxDuration = "30s")
  void csvRoundTrip(FuzzedDataProvider data) throws IOException {
    int columns = data.consumeInt(1, 4);
    boolean compress = data.consumeBoolean();
    int blockSize = data.consumeInt(1, 300);
    List<String> header = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      header.add("c" + c + data.consumeString(8));
    }
    List<String[]> rows = new ArrayList<>();
    int count = data.consumeInt(0, 8);
    for (int r = 0; r < count; r++) {
      String[] row = new String[columns];
      for (int c = 0; c < columns; c++) {
        row[c] = data.consumeBoolean() ? null : data.consumeString(40);
      }
      rows.add(row);
    }

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (var out = compress ? new BlockGzipWriter(bytes, null, 1, blockSize, 6) : bytes;
        CsvRowWriter csv = new CsvRowWriter(out)) {
      csv.record(header);
      for (String[] row : rows) {
        csv.record(java.util.Arrays.asList(row));
      }
      csv.flush();
    }
    InputStream in = new ByteArrayInputStream(bytes.toByteArray());
    if (compress) {
      in = new GzipMemberReader(in, "fuzz.csv.gz");
    }
    try (CsvRowReader reader = new CsvRowReader(in, "fuzz.csv")) {
      assertEquals(header, reader.header());
      for (String[] row : rows) {
        assertArrayEquals(row, reader.next());
      }
      assertEquals(null, reader.next());
    }
  }

  /** Any bytes as a staged file, gzip or not: rows or an IOException, nothing else. */
  @FuzzTest(maxDuration = "30s")
  void readStagedFile(byte[] file) {
    InputStream in = new ByteArrayInputStream(file);
    if (file.length >= 2 && file[0] == (byte) 0x1f && file[1] == (byte) 0x8b) {
      in = new GzipMemberReader(in, "fuzz.csv.gz");
    }
    try (CsvRowReader reader = new CsvRowReader(in, "fuzz.csv")) {
      while (reader.next() != null) {
        // every row read is fine; only how reading ends matters
      }
    } catch (IOException expected) {
      // bad input, named: what the reader promises
    }
  }
}
