package io.gantry.staging.internal.csv;

import java.io.IOException;
import java.io.Writer;
import org.apache.commons.csv.CSVFormat;

/**
 * Writes CSV records in the {@link CsvDialect}: field escaping by Commons CSV, with null written as
 * an empty unquoted field and the empty string as {@code ""}.
 */
public final class CsvRowWriter {
  private final Writer out;
  // CSVFormat.print is synchronized: private copies keep parallel extracts from contending
  private final CSVFormat minimal = CsvDialect.WRITE_MINIMAL.builder().get();
  private final CSVFormat quoted = CsvDialect.WRITE_QUOTED.builder().get();
  private boolean newRecord = true;

  public CsvRowWriter(Writer out) {
    this.out = out;
  }

  /** Appends one field to the current record; null is SQL NULL. */
  public void field(String value) throws IOException {
    if (value == null) {
      if (!newRecord) {
        out.append(',');
      }
    } else if (value.isEmpty()) {
      quoted.print(value, out, newRecord);
    } else if (isPlain(value)) {
      // what Commons CSV prints for it too, without its per-field scan and lock
      if (!newRecord) {
        out.append(',');
      }
      out.append(value);
    } else {
      minimal.print(value, out, newRecord);
    }
    newRecord = false;
  }

  /**
   * Letters, digits and {@code + - . : _ /}: numbers, dates, timestamps, identifiers. Minimal
   * quoting leaves such a field as it is (it quotes a field that holds a delimiter, quote or line
   * break, starts with a character up to {@code #}, or ends in white space), so it is written
   * directly ({@code CsvRowWriterTest} checks it against Commons CSV).
   */
  static boolean isPlain(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == ':'
          || c == '+'
          || c == '_'
          || c == '/')) {
        return false;
      }
    }
    return true;
  }

  public void endRecord() throws IOException {
    out.append('\n');
    newRecord = true;
  }

  public void record(Iterable<String> values) throws IOException {
    for (String v : values) {
      field(v);
    }
    endRecord();
  }

  public void flush() throws IOException {
    out.flush();
  }
}
