package io.gantry.staging.internal.sql;

/**
 * Turns PostgreSQL's timestamp text ({@code 2024-02-29 23:59:59.5}) into ISO 8601's ({@code
 * 2024-02-29T23:59:59.5}) inside rows of {@code COPY ... (FORMAT csv)} output, in place.
 *
 * <p>Doing it in SQL ({@code overlay(ts::text ...)} in a wrapping query) costs the database 20-30%
 * more time per row, and the database is the single thread every extract waits on; here it is one
 * byte per value. PostgreSQL sends each COPY row as one message, so a row is whole. Fields are
 * stepped over by the CSV quoting rule PostgreSQL writes (a quoted field ends at a quote not
 * followed by another); nothing else in the row is touched, and NULL (an empty field) has no
 * separator to change.
 */
final class TimestampSeparator {
  private TimestampSeparator() {}

  /**
   * @param columns the 0-based indexes of timestamp columns, ascending
   */
  static void fix(byte[] row, int length, int[] columns) {
    int i = 0;
    int field = 0;
    int next = 0;
    while (i < length && next < columns.length) {
      int end = fieldEnd(row, i, length);
      if (field == columns[next]) {
        replaceFirstSpace(row, i, end);
        next++;
      }
      i = end + 1; // past the comma (or the line end)
      field++;
    }
  }

  /** Index of the delimiter or line end after the field starting at {@code i}. */
  private static int fieldEnd(byte[] row, int i, int length) {
    if (i < length && row[i] == '"') {
      i++;
      while (i < length) {
        if (row[i] == '"') {
          if (i + 1 < length && row[i + 1] == '"') {
            i += 2;
            continue;
          }
          i++;
          break;
        }
        i++;
      }
    }
    while (i < length && row[i] != ',' && row[i] != '\n' && row[i] != '\r') {
      i++;
    }
    return i;
  }

  private static void replaceFirstSpace(byte[] row, int from, int to) {
    for (int i = from; i < to; i++) {
      if (row[i] == ' ') {
        row[i] = 'T';
        return;
      }
    }
  }
}
