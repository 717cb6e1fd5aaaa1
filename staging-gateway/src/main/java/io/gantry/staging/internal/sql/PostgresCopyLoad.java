package io.gantry.staging.internal.sql;

import io.gantry.staging.BoundValues;
import io.gantry.staging.internal.csv.ParameterBinder;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * The PostgreSQL fast path of a stage-out load: the file's CSV goes through the driver's COPY API
 * into a temporary staging table, then the job's statement runs once over all staged rows. Both
 * happen inside the step's transaction, before its ledger row ({@link StageOutLedger}) and the one
 * commit, so a crash or failure anywhere before that commit leaves neither rows nor ledger row (the
 * staging table, {@code ON COMMIT DROP}, goes with the transaction), and exactly-once holds as on
 * the JDBC path.
 *
 * <p>Where the statement only hands each field to a column ({@code INSERT INTO t (a, b) VALUES (?,
 * ?)}, no template value, {@code t} a table without rules), the COPY goes straight into {@code t
 * (a, b)}: the same conversions (each parameter's type is its column's) without the staging table's
 * second write, so the load runs at the speed of {@code psql \copy ... FROM}.
 *
 * <p>It is taken only where it means the same as binding every row:
 *
 * <ul>
 *   <li>the statement is a one-row {@code INSERT ... VALUES (...)} ({@link InsertValuesShape});
 *   <li>every parameter the file fills has a type whose PostgreSQL text input accepts every value
 *       {@link ParameterBinder} accepts, with the same meaning ({@link #SAME_INPUT}); the staging
 *       column gets that type, so the statement converts it as it would the bound parameter;
 *   <li>PostgreSQL's CSV reading is the staged files' dialect: NULL an empty unquoted field, the
 *       empty string {@code ""}, RFC 4180 quoting, a header row. A line of just {@code \.} (the end
 *       of COPY data) sends the step down the JDBC path.
 * </ul>
 *
 * Rows the database rejects (a value it cannot read, a constraint) make {@link RowsRejected}: the
 * caller rolls back and runs the step again on the JDBC path, which names the file line and
 * parameter as on every database. A temporary table that cannot be created (no TEMP right) does the
 * same. This class touches the PostgreSQL driver, so it is loaded only for {@code jdbc:postgresql:}
 * URLs.
 */
final class PostgresCopyLoad {
  /**
   * Types whose COPY input reads the batch path's accepted spellings the same way: integers and
   * numeric (plain or exponent notation, surrounding blanks), float, text types, ISO dates,
   * timestamps without zone (ISO, with {@code T} or a blank), booleans ({@code true/t/1/yes} and
   * their opposites) and uuid. Not here: time zones (the batch path requires an offset), binary
   * (base64 there, hex in COPY), json and other types bound as text.
   */
  static final Set<String> SAME_INPUT =
      Set.of(
          "int2",
          "int4",
          "int8",
          "numeric",
          "float4",
          "float8",
          "text",
          "varchar",
          "bpchar",
          "name",
          "date",
          "timestamp",
          "bool",
          "uuid");

  private static final String STAGED = "gantry_stage_out_rows";
  private static final int CHUNK = 256 * 1024;

  private PostgresCopyLoad() {}

  /** The database turned rows away; the JDBC path will say which. */
  static final class RowsRejected extends Exception {
    RowsRejected(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * What the COPY path runs: the staging table's DDL, the COPY, and the statement over the staged
   * rows with the template values it still binds; DDL and statement are null where the COPY goes
   * straight into the target table.
   */
  record Plan(String createStaged, String copy, String statement, List<String> boundInOrder) {}

  static boolean isPostgres(Connection c) throws SQLException {
    return PostgresCopyExport.isPostgres(c);
  }

  /**
   * Decides whether the load can take the COPY path, by the statement's shape and the types the
   * server describes for its parameters (nothing is executed).
   *
   * @param fileColumns the number of columns of the file's header
   */
  static Plan plan(Connection c, String statement, BoundValues bound, int fileColumns)
      throws SQLException {
    InsertValuesShape shape = InsertValuesShape.of(statement);
    if (shape == null) {
      return null;
    }
    ParameterMetaData md;
    try (PreparedStatement ps = c.prepareStatement(statement)) {
      md = ps.getParameterMetaData();
      int markers = md.getParameterCount();
      if (markers != shape.markers() || markers - bound.count() != fileColumns) {
        return null; // the JDBC path reports a mismatch in its words
      }
      String[] replacement = new String[markers];
      List<String> columns = new ArrayList<>();
      List<String> boundInOrder = new ArrayList<>();
      for (int i = 1; i <= markers; i++) {
        String value = bound.byMarker().get(i);
        if (value != null) {
          replacement[i - 1] = "?";
          boundInOrder.add(value);
          continue;
        }
        String type = md.getParameterTypeName(i);
        if (type == null || !SAME_INPUT.contains(type.toLowerCase(Locale.ROOT))) {
          return null;
        }
        String column = "c" + (columns.size() + 1);
        columns.add(column + " " + type.toLowerCase(Locale.ROOT));
        replacement[i - 1] = "gantry_staged." + column;
      }
      String[] target = shape.plainTarget();
      if (bound.isEmpty()
          && shape.valuesAreMarkersOnly()
          && target != null
          && isPlainTable(c, target[0])) {
        // the statement only passes each field to its column: COPY straight into the table
        String columnList = target[1] == null ? "" : " (" + target[1] + ")";
        return new Plan(
            null,
            "COPY " + target[0] + columnList + " FROM STDIN WITH (FORMAT csv, HEADER true)",
            null,
            List.of());
      }
      return new Plan(
          "CREATE TEMPORARY TABLE "
              + STAGED
              + " ("
              + String.join(", ", columns)
              + ") ON COMMIT DROP",
          "COPY " + STAGED + " FROM STDIN WITH (FORMAT csv, HEADER true)",
          shape.overStagedRows(replacement, "pg_temp." + STAGED + " AS gantry_staged"),
          List.copyOf(boundInOrder));
    }
  }

  /**
   * A table (plain or partitioned) without rules: what COPY writes to exactly as INSERT would. A
   * view, or a table whose rules rewrite INSERT, keeps the staging table and the statement.
   */
  private static boolean isPlainTable(Connection c, String name) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT c.relkind IN ('r', 'p') AND NOT c.relhasrules FROM pg_class c"
                + " WHERE c.oid = to_regclass(?)")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  /**
   * Stages {@code csv} (the decompressed file, header first) and runs the statement over it, in the
   * connection's open transaction; returns the number of rows of the file, or -1 if the file holds
   * a line that would end COPY early (the caller then rolls back and takes the JDBC path).
   */
  static long load(Connection c, Plan plan, InputStream csv, String fileName, StepContext context)
      throws SQLException, IOException, InterruptedException, RowsRejected {
    if (plan.createStaged() != null) {
      try (Statement s = c.createStatement()) {
        s.execute(plan.createStaged());
      } catch (SQLException e) {
        throw rejectedOr(e, "cannot create the staging table");
      }
    }
    long rows = copyIn(c, plan.copy(), csv, context);
    if (rows < 0) {
      return -1;
    }
    if (plan.statement() == null) {
      context.progress().add(rows, 0);
      return rows;
    }
    try (PreparedStatement ps = c.prepareStatement(plan.statement())) {
      AutoCloseable cancel = ps::cancel;
      context.onCancel(cancel);
      try {
        if (!plan.boundInOrder().isEmpty()) {
          ParameterBinder.forStatement(ps, fileName)
              .bind(ps, plan.boundInOrder().toArray(String[]::new), 1);
        }
        ps.executeLargeUpdate();
      } catch (ParameterBinder.BindException e) {
        throw new RowsRejected(e.getMessage(), e);
      } finally {
        context.clearOnCancel(cancel);
      }
    } catch (SQLException e) {
      throw rejectedOr(e, "rejected by the statement");
    }
    context.progress().add(rows, 0);
    return rows;
  }

  private static long copyIn(Connection c, String copy, InputStream csv, StepContext context)
      throws SQLException, IOException, InterruptedException, RowsRejected {
    PGConnection pg = c.unwrap(PGConnection.class);
    AutoCloseable cancel = pg::cancelQuery;
    context.onCancel(cancel);
    CopyIn in;
    try {
      in = pg.getCopyAPI().copyIn(copy);
    } catch (SQLException e) {
      context.clearOnCancel(cancel);
      throw rejectedOr(e, "COPY refused");
    }
    InflatingReader reader = new InflatingReader(csv);
    try {
      EndOfDataLine endOfData = new EndOfDataLine();
      byte[] buf;
      while ((buf = reader.next()) != null) {
        if (endOfData.foundIn(buf, buf.length)) {
          return -1;
        }
        in.writeToCopy(buf, 0, buf.length);
        context.progress().add(0, buf.length);
        context.checkCancelled();
      }
      if (endOfData.atEnd()) {
        return -1;
      }
      return in.endCopy();
    } catch (SQLException e) {
      throw rejectedOr(e, "COPY rejected the file");
    } finally {
      if (in.isActive()) {
        try {
          in.cancelCopy(); // leave the connection usable after a failure
        } catch (SQLException e) {
          // the connection is broken; the pool discards it and the database rolls back
        }
      }
      context.clearOnCancel(cancel);
      reader.stop();
    }
  }

  /**
   * Reads (and so inflates) the file on a thread of its own, a few chunks ahead of the thread that
   * sends them to COPY, as {@code gzip -dc | psql} does in two processes.
   */
  private static final class InflatingReader {
    private static final byte[] END = new byte[0];
    private final BlockingQueue<Object> chunks = new ArrayBlockingQueue<>(4);
    private final Thread thread;
    private volatile boolean stopped;

    InflatingReader(InputStream csv) {
      thread =
          new Thread(
              () -> {
                Object last = END;
                try {
                  byte[] buf = new byte[CHUNK];
                  int n;
                  while (!stopped && (n = csv.readNBytes(buf, 0, CHUNK)) > 0) {
                    put(Arrays.copyOf(buf, n));
                  }
                } catch (IOException | RuntimeException e) {
                  last = e;
                }
                put(last);
              },
              "gantry-stage-out-inflate");
      thread.setDaemon(true);
      thread.start();
    }

    private void put(Object chunk) {
      try {
        while (!stopped && !chunks.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
          // the sender is busy; look again whether it gave up
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** The next chunk, or null at the end of the file. */
    byte[] next() throws IOException, InterruptedException {
      Object chunk = chunks.take();
      if (chunk == END) {
        return null;
      }
      if (chunk instanceof IOException e) {
        throw new IOException(e.getMessage(), e);
      }
      if (chunk instanceof RuntimeException e) {
        throw e;
      }
      return (byte[]) chunk;
    }

    /** Ends the reading thread (its stream is closed by the caller afterwards). */
    void stop() throws InterruptedException {
      stopped = true;
      thread.join();
    }
  }

  /**
   * Data exceptions (class 22), constraint violations (23) and a missing TEMP right (42501) are the
   * rows' or the right's fault, for the JDBC path to report; anything else (a lost connection, a
   * missing table) is reported as it is.
   */
  private static SQLException rejectedOr(SQLException e, String what) throws RowsRejected {
    String state = e.getSQLState();
    if (state != null
        && (state.startsWith("22") || state.startsWith("23") || state.equals("42501"))) {
      throw new RowsRejected(what + ": " + e.getMessage(), e);
    }
    return e;
  }

  /**
   * Watches the streamed bytes for a line that is exactly {@code \.} ({@code \.\r} too): COPY would
   * take it for the end of the data and silently ignore the rest of the file.
   */
  static final class EndOfDataLine {
    /**
     * 0: at a line start; 1: saw a backslash there; 2: saw {@code \.}; 3: {@code \.\r}; -1:
     * mid-line.
     */
    private int state;

    boolean foundIn(byte[] b, int n) {
      for (int i = 0; i < n; i++) {
        byte x = b[i];
        if (x == '\n') {
          if (state == 2 || state == 3) {
            return true;
          }
          state = 0;
        } else if (state == 0 && x == '\\') {
          state = 1;
        } else if (state == 1 && x == '.') {
          state = 2;
        } else if (state == 2 && x == '\r') {
          state = 3;
        } else {
          state = -1;
        }
      }
      return false;
    }

    /** A last line {@code \.} without a line end. */
    boolean atEnd() {
      return state == 2 || state == 3;
    }
  }
}
