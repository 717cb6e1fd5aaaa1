package io.gantry.staging.internal.sql;

import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongConsumer;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * The PostgreSQL fast path of an extract: {@code COPY (query) TO STDOUT WITH (FORMAT csv)} streams
 * the server's own CSV straight into the (blocked-gzip) file, with no per-value work in Java. It is
 * taken only where that CSV holds the same values as the JDBC path writes (quoting may differ:
 * Commons CSV also quotes fields with leading or trailing spaces, PostgreSQL does not):
 *
 * <ul>
 *   <li>PostgreSQL's CSV already writes NULL as an empty field and the empty string as {@code ""};
 *   <li>integers, numeric (exact, plain notation), text, date (DateStyle ISO, which the driver
 *       sets) and uuid print identically; timestamp differs only in the date-time separator, which
 *       {@link TimestampSeparator} changes as the rows stream by;
 *   <li>any other column type (floats, time zones, booleans, binary, ...) sends the extract down
 *       the JDBC path.
 * </ul>
 *
 * This class touches the PostgreSQL driver, so it is loaded only for {@code jdbc:postgresql:} URLs.
 */
final class PostgresCopyExport {
  private static final Set<String> SAME_TEXT =
      Set.of(
          "int2", "int4", "int8", "numeric", "text", "varchar", "bpchar", "date", "uuid", "name");

  private static final int PROGRESS_EVERY_ROWS = 65536;

  private PostgresCopyExport() {}

  static boolean isPostgres(Connection c) throws SQLException {
    return c.getMetaData().getURL().startsWith("jdbc:postgresql:");
  }

  /**
   * The COPY statement for {@code query}, or null if a column needs the JDBC path.
   *
   * @param columnsOut receives the column labels
   * @param timestampColumnsOut receives the 0-based indexes of timestamp columns
   */
  static String copyStatement(
      Connection c, String query, List<String> columnsOut, List<Integer> timestampColumnsOut)
      throws SQLException {
    String body = query.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    ResultSetMetaData md;
    try (PreparedStatement ps = c.prepareStatement(body)) {
      md = ps.getMetaData(); // described by the server, not executed
      if (md == null || ps.getParameterMetaData().getParameterCount() > 0) {
        return null;
      }
    }
    for (int i = 1; i <= md.getColumnCount(); i++) {
      String type = md.getColumnTypeName(i).toLowerCase(Locale.ROOT);
      columnsOut.add(md.getColumnLabel(i));
      if (type.equals("timestamp")) {
        timestampColumnsOut.add(i - 1);
      } else if (!SAME_TEXT.contains(type)) {
        return null;
      }
    }
    return "COPY (" + body + ") TO STDOUT WITH (FORMAT csv, HEADER false)";
  }

  /**
   * Runs the COPY into {@code out}, row by row; returns the number of rows.
   *
   * @param onRows told of rows written so far, in steps, for progress reports
   */
  static long copyOut(
      Connection c,
      String copy,
      List<Integer> timestampColumns,
      OutputStream out,
      StepContext context,
      LongConsumer onRows)
      throws SQLException, IOException, InterruptedException {
    PGConnection pg = c.unwrap(PGConnection.class);
    int[] timestamps = timestampColumns.stream().mapToInt(Integer::intValue).toArray();
    AutoCloseable cancel = pg::cancelQuery;
    context.onCancel(cancel);
    CopyOut copyOut = pg.getCopyAPI().copyOut(copy);
    try {
      byte[] row;
      long rows = 0;
      while ((row = copyOut.readFromCopy()) != null) {
        if (timestamps.length > 0) {
          TimestampSeparator.fix(row, row.length, timestamps);
        }
        out.write(row);
        if (++rows % PROGRESS_EVERY_ROWS == 0) {
          context.checkCancelled();
          onRows.accept(PROGRESS_EVERY_ROWS);
        }
      }
      onRows.accept(rows % PROGRESS_EVERY_ROWS);
      return rows;
    } finally {
      if (copyOut.isActive()) {
        copyOut.cancelCopy(); // leave the connection usable after a failure
      }
      context.clearOnCancel(cancel);
    }
  }
}
