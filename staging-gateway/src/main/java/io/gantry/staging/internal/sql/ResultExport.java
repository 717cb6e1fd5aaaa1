package io.gantry.staging.internal.sql;

import io.gantry.staging.StagingException;
import io.gantry.staging.internal.csv.CsvRowWriter;
import io.gantry.staging.internal.csv.SqlValueFormats;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes result sets into one CSV under one header, counting and reporting rows and bytes; the rows
 * are written on a {@link CsvWritingThread}.
 */
final class ResultExport implements AutoCloseable {
  private static final int PROGRESS_EVERY_ROWS = 8192;
  // values per batch handed to the writing thread: 1,024 rows of 8 columns
  private static final int BATCH_VALUES = 8192;

  private final String step;
  private final String outputName;
  private final CsvRowWriter csv;
  private final List<String> existingHeader;
  private final OutputFile file;
  private final StepContext context;
  private final CsvWritingThread writer;
  private boolean headerDone;
  private long rows;
  private long reportedRows;
  private long reportedBytes;

  ResultExport(
      CsvRowWriter csv,
      List<String> existingHeader,
      OutputFile file,
      StepContext context,
      String step,
      String outputName) {
    this.step = step;
    this.outputName = outputName;
    this.csv = csv;
    this.existingHeader = existingHeader;
    this.file = file;
    this.context = context;
    this.writer = new CsvWritingThread(csv);
  }

  boolean headerDone() {
    return headerDone;
  }

  long rowCount() {
    return rows;
  }

  void header(ResultSetMetaData md) throws SQLException, IOException, StagingException {
    headerDone = true;
    if (md == null) {
      return;
    }
    List<String> columns = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      columns.add(md.getColumnLabel(i));
    }
    header(columns);
  }

  /** Writes the header, or checks it against the file being appended to. */
  void header(List<String> columns) throws IOException, StagingException {
    if (writer.started()) {
      throw new IllegalStateException("the header must be written before the rows");
    }
    headerDone = true;
    if (existingHeader == null) {
      csv.record(columns);
    } else if (!sameNames(existingHeader, columns)) {
      throw new StagingException(
          step,
          "cannot append: '"
              + outputName
              + "' has columns "
              + existingHeader
              + " but the query returns "
              + columns);
    }
  }

  /** Column names match ignoring case, as unquoted SQL names do (H2 reports them upper case). */
  private static boolean sameNames(List<String> a, List<String> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equalsIgnoreCase(b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads the result's rows on this thread and hands them, a batch at a time, to the {@link
   * CsvWritingThread} that writes them; {@link #finish} waits for the last.
   */
  void rows(ResultSet rs) throws SQLException, IOException, InterruptedException, StagingException {
    if (!headerDone) {
      header(rs.getMetaData());
    }
    var formats = SqlValueFormats.forColumns(rs.getMetaData());
    int columns = formats.length;
    int batchRows = Math.max(1, BATCH_VALUES / Math.max(1, columns));
    // small results (a statement per input row) get a small array, grown as rows come
    Object[] values = new Object[Math.min(batchRows, 16) * columns];
    int filled = 0;
    while (rs.next()) {
      if (filled == values.length / Math.max(1, columns)) {
        if (filled == batchRows) {
          writer.write(new CsvWritingThread.Batch(formats, values, filled));
          values = new Object[batchRows * columns];
          filled = 0;
        } else {
          values = Arrays.copyOf(values, Math.min(batchRows, 2 * filled) * columns);
        }
      }
      int at = filled * columns;
      for (int i = 0; i < columns; i++) {
        values[at + i] = formats[i].read(rs, i + 1);
      }
      filled++;
      if (++rows % PROGRESS_EVERY_ROWS == 0) {
        context.checkCancelled();
        reportRest();
      }
    }
    if (filled > 0) {
      writer.write(new CsvWritingThread.Batch(formats, values, filled));
    }
  }

  /** Waits until every row read is written. */
  void finish() throws IOException, InterruptedException {
    writer.finish();
  }

  /** Stops the writing thread, if a failure left it running. */
  @Override
  public void close() {
    writer.close();
  }

  void addRows(long count) {
    rows += count;
    reportRest();
  }

  void reportRest() {
    long bytes = file.bytes();
    context.progress().add(rows - reportedRows, bytes - reportedBytes);
    reportedRows = rows;
    reportedBytes = bytes;
  }
}
