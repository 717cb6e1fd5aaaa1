package io.gantry.staging.internal.sql;

import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.postgresql.PGConnection;

/**
 * The PostgreSQL fast path of an extract: {@code COPY (query) TO STDOUT WITH (FORMAT csv)}
 * streams the server's own CSV straight into the (blocked-gzip) file, with no per-value work in
 * Java. It is taken only where that CSV holds the same values as the JDBC path writes (quoting
 * may differ: Commons CSV also quotes fields with leading or trailing spaces, PostgreSQL does not):
 * <ul>
 *   <li>PostgreSQL's CSV already writes NULL as an empty field and the empty string as {@code ""};
 *   <li>integers, numeric (exact, plain notation), text, date (DateStyle ISO, which the driver
 *       sets) and uuid print identically; timestamp differs only in the separator, so those
 *       columns are selected as {@code overlay(c::text placing 'T' from 11)};
 *   <li>any other column type (floats, time zones, booleans, binary, ...) sends the extract down
 *       the JDBC path.
 * </ul>
 * This class touches the PostgreSQL driver, so it is loaded only for {@code jdbc:postgresql:} URLs.
 */
final class PostgresCopyExport {
  private static final Set<String> SAME_TEXT = Set.of("int2", "int4", "int8", "numeric", "text", "varchar",
      "bpchar", "date", "uuid", "name");

  private PostgresCopyExport() {}

  static boolean isPostgres(Connection c) throws SQLException {
    return c.getMetaData().getURL().startsWith("jdbc:postgresql:");
  }

  /** The COPY statement for {@code query}, or null if a column needs the JDBC path. */
  static String copyStatement(Connection c, String query, List<String> columnsOut) throws SQLException {
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
    List<String> select = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    boolean rewrite = false;
    for (int i = 1; i <= md.getColumnCount(); i++) {
      String type = md.getColumnTypeName(i).toLowerCase(Locale.ROOT);
      String label = md.getColumnLabel(i);
      columnsOut.add(label);
      String quoted = "\"" + label.replace("\"", "\"\"") + "\"";
      if (type.equals("timestamp")) {
        select.add("overlay(q." + quoted + "::text placing 'T' from 11 for 1) AS " + quoted);
        rewrite = true;
      } else if (SAME_TEXT.contains(type)) {
        select.add("q." + quoted);
      } else {
        return null;
      }
      if (!seen.add(label)) {
        return null; // a duplicate column name cannot be selected from the wrapped query
      }
    }
    String source = rewrite ? "SELECT " + String.join(", ", select) + " FROM (" + body + ") q" : body;
    return "COPY (" + source + ") TO STDOUT WITH (FORMAT csv, HEADER false)";
  }

  /** Runs the COPY into {@code out}; returns the number of rows. */
  static long copyOut(Connection c, String copy, OutputStream out, StepContext context)
      throws SQLException, IOException {
    PGConnection pg = c.unwrap(PGConnection.class);
    AutoCloseable cancel = pg::cancelQuery;
    context.onCancel(cancel);
    try {
      return pg.getCopyAPI().copyOut(copy, out);
    } finally {
      context.clearOnCancel(cancel);
    }
  }
}
