package io.gantry.staging.internal.csv;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.commons.csv.CSVFormat;

/**
 * Writes CSV records in the {@link CsvDialect} as UTF-8 bytes: field escaping by Commons CSV, with
 * null written as an empty unquoted field and the empty string as {@code ""}.
 *
 * <p>Plain fields (numbers, dates, identifiers; see {@link #isPlain}) are checked and copied into
 * the writer's own byte buffer in one pass, without a {@code Writer}'s lock, char buffer and
 * encoder: on the JDBC extract path those three took about half of the exporting thread's samples
 * (JFR, staging-gateway/README.md "Benchmark"). Everything else goes through Commons CSV and is
 * encoded as {@code OutputStreamWriter} encodes it (a lone surrogate becomes {@code ?}).
 */
public final class CsvRowWriter implements Closeable {
  private static final int BUFFER_BYTES = 1 << 16;
  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      PLAIN[c] = true;
    }
    for (char c = 'A'; c <= 'Z'; c++) {
      PLAIN[c] = true;
    }
    for (char c = '0'; c <= '9'; c++) {
      PLAIN[c] = true;
    }
    for (char c : "-.:+_/".toCharArray()) {
      PLAIN[c] = true;
    }
  }

  private final OutputStream out;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int fill;
  // CSVFormat.print is synchronized: private copies keep parallel extracts from contending
  private final CSVFormat minimal = CsvDialect.WRITE_MINIMAL.builder().get();
  private final CSVFormat quoted = CsvDialect.WRITE_QUOTED.builder().get();
  private final StringBuilder escaped = new StringBuilder();
  private boolean newRecord = true;

  public CsvRowWriter(OutputStream out) {
    this.out = out;
  }

  /** Appends one field to the current record; null is SQL NULL. */
  public void field(CharSequence value) throws IOException {
    if (value == null) {
      if (!newRecord) {
        put((byte) ',');
      }
    } else if (value.length() == 0) {
      escaped(quoted, value);
    } else if (!putPlain(value)) {
      escaped(minimal, value);
    }
    newRecord = false;
  }

  /** Appends an integer field, as {@link Long#toString(long)} writes it. */
  public void field(long value) throws IOException {
    if (value == Long.MIN_VALUE) {
      field(Long.toString(value));
      return;
    }
    if (BUFFER_BYTES - fill < 21) {
      drain();
    }
    if (!newRecord) {
      buffer[fill++] = ',';
    }
    newRecord = false;
    if (value < 0) {
      buffer[fill++] = '-';
      value = -value;
    }
    int digits = 1;
    for (long v = value / 10; v != 0; v /= 10) {
      digits++;
    }
    for (int at = fill + digits - 1; at >= fill; at--) {
      buffer[at] = (byte) ('0' + value % 10);
      value /= 10;
    }
    fill += digits;
  }

  /**
   * Copies a plain field (with its separator) straight into the buffer, checking each character as
   * it goes; false, with nothing written, at the first character Commons CSV might quote.
   */
  private boolean putPlain(CharSequence value) throws IOException {
    int length = value.length();
    if (length + 1 > BUFFER_BYTES - fill) {
      drain();
      if (length + 1 > BUFFER_BYTES) {
        return false; // a long field: Commons CSV writes it, plain or not
      }
    }
    int at = newRecord ? fill : fill + 1;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (c >= 128 || !PLAIN[c]) {
        return false;
      }
      buffer[at + i] = (byte) c;
    }
    if (!newRecord) {
      buffer[fill] = ',';
    }
    fill = at + length;
    return true;
  }

  private void escaped(CSVFormat format, CharSequence value) throws IOException {
    escaped.setLength(0);
    format.print(value, escaped, newRecord);
    byte[] bytes = escaped.toString().getBytes(StandardCharsets.UTF_8);
    if (bytes.length > BUFFER_BYTES - fill) {
      drain();
      if (bytes.length > BUFFER_BYTES) {
        out.write(bytes);
        return;
      }
    }
    System.arraycopy(bytes, 0, buffer, fill, bytes.length);
    fill += bytes.length;
  }

  /**
   * Letters, digits and {@code + - . : _ /}: numbers, dates, timestamps, identifiers. Minimal
   * quoting leaves such a field as it is (it quotes a field that holds a delimiter, quote or line
   * break, starts with a character up to {@code #}, or ends in white space), so it is written
   * directly ({@code CsvRowWriterTest} checks it against Commons CSV).
   */
  static boolean isPlain(CharSequence value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c >= 128 || !PLAIN[c]) {
        return false;
      }
    }
    return true;
  }

  public void endRecord() throws IOException {
    put((byte) '\n');
    newRecord = true;
  }

  public void record(Iterable<String> values) throws IOException {
    for (String v : values) {
      field(v);
    }
    endRecord();
  }

  private void put(byte b) throws IOException {
    if (fill == BUFFER_BYTES) {
      drain();
    }
    buffer[fill++] = b;
  }

  private void drain() throws IOException {
    if (fill > 0) {
      out.write(buffer, 0, fill);
      fill = 0;
    }
  }

  /** Hands the buffered bytes to the stream and flushes it. */
  public void flush() throws IOException {
    drain();
    out.flush();
  }

  /** Hands the buffered bytes to the stream and closes it. */
  @Override
  public void close() throws IOException {
    try {
      drain();
    } finally {
      out.close();
    }
  }
}
