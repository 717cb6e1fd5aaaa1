package io.gantry.staging.internal.csv;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads a staged CSV file record by record (never the whole file): the header first, then rows
 * whose fields are strings, or null for SQL NULL ({@link CsvDialect}). Invalid UTF-8 and broken
 * quoting fail with the file name and line.
 */
public final class CsvRowReader implements AutoCloseable {
  private final String name;
  private final CSVParser parser;
  private final Iterator<CSVRecord> records;
  private final List<String> header;
  private long line;

  /**
   * @param name the file's job-relative name, for error messages
   */
  public CsvRowReader(InputStream in, String name) throws IOException {
    this.name = name;
    var decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    this.parser =
        CSVParser.builder()
            .setReader(new InputStreamReader(in, decoder))
            .setFormat(CsvDialect.READ)
            .get();
    this.records = parser.iterator();
    CSVRecord first = nextRecord();
    if (first == null) {
      throw new IOException(name + ": empty file, expected a header row");
    }
    this.header = first.toList();
  }

  public List<String> header() {
    return header;
  }

  /** The next row's fields (null field = NULL), or null at end of file. */
  public String[] next() throws IOException {
    CSVRecord r = nextRecord();
    if (r == null) {
      return null;
    }
    return r.values();
  }

  /** Line number where the last returned record started (1 = header). */
  public long line() {
    return line;
  }

  private CSVRecord nextRecord() throws IOException {
    try {
      if (!records.hasNext()) {
        return null;
      }
      CSVRecord r = records.next();
      line = parser.getCurrentLineNumber();
      return r;
    } catch (UncheckedIOException e) {
      throw new IOException(
          name
              + ": unreadable CSV after line "
              + parser.getCurrentLineNumber()
              + ": "
              + e.getCause().getMessage(),
          e.getCause());
    } catch (IllegalStateException e) {
      throw new IOException(
          name + ": broken CSV near line " + parser.getCurrentLineNumber() + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
