package io.gantry.staging.internal.sql;

import io.gantry.staging.SqlExtract;
import io.gantry.staging.StagingException;
import io.gantry.staging.internal.csv.CsvRowReader;
import io.gantry.staging.internal.csv.ParameterBinder;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A statement bound to an input file, several input rows per round trip (PostgreSQL): the statement
 * is repeated {@code batch} times in one prepared statement, which pgjdbc sends as that many
 * Parse/Bind/Execute messages behind one Sync, and the results come back one result set per input
 * row, in input order. Each execution is exactly the per-row statement with that row's values, so
 * the output is the same bytes as one round trip per row; only the waiting differs. A statement
 * with one parameter of a simple type goes further: each batch is one statement over an array of
 * keys ({@link KeyArrayStatement}). The data source's connection pool still bounds how many
 * statements run at once.
 */
final class BatchedBinding {
  private final Connection connection;
  private final PreparedStatement single;
  private final SqlExtract extract;
  private final int batch;
  private final String label;
  private final String statement;
  private PreparedStatement full;

  /**
   * The parameter's type when whole batches go as one statement over an array of keys; else null.
   */
  private String keyArray;

  BatchedBinding(
      Connection connection,
      PreparedStatement single,
      SqlExtract extract,
      int batch,
      String label) {
    this.connection = connection;
    this.single = single;
    this.extract = extract;
    this.batch = batch;
    this.label = label;
    this.statement = withoutFinalSemicolon(extract.statement());
  }

  void run(InputRows input, ResultExport export, StepContext context)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    String inputName = extract.inputFileName();
    ParameterBinder binder = ParameterBinder.forStatement(single, inputName);
    if (binder.parameterCount() == 1) {
      String type = single.getParameterMetaData().getParameterTypeName(1);
      String overKeys =
          KeyArrayStatement.supports(type) ? KeyArrayStatement.rewrite(statement, type) : null;
      if (overKeys != null) {
        keyArray = type;
        try (java.sql.Statement s = connection.createStatement()) {
          s.execute(KeyArrayStatement.PLAN_SETTINGS);
        }
        full = connection.prepareStatement(overKeys);
        full.setFetchSize(
            single.getFetchSize()); // a cursor: a batch's rows stream like one statement's
      }
    }
    List<String[]> rows = new ArrayList<>(batch);
    List<Long> lines = new ArrayList<>(batch);
    try (CsvRowReader reader = new CsvRowReader(input.open(), inputName)) {
      String[] fields;
      while ((fields = reader.next()) != null) {
        context.checkCancelled();
        if (fields.length < binder.parameterCount()) {
          throw new StagingException(
              label,
              inputName
                  + " line "
                  + reader.line()
                  + " has "
                  + fields.length
                  + " fields but the statement has "
                  + binder.parameterCount()
                  + " parameters");
        }
        rows.add(fields);
        lines.add(reader.line());
        if (rows.size() == batch) {
          execute(binder, rows, lines, export, context);
        }
      }
      if (!rows.isEmpty()) {
        execute(binder, rows, lines, export, context);
      }
    } finally {
      if (full != null) {
        full.close();
      }
    }
  }

  private void execute(
      ParameterBinder binder,
      List<String[]> rows,
      List<Long> lines,
      ResultExport export,
      StepContext context)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    if (keyArray != null) {
      executeOverKeys(binder, rows, lines, export, context);
      return;
    }
    boolean whole = rows.size() == batch;
    PreparedStatement ps = whole ? full() : prepare(rows.size());
    AutoCloseable cancel = ps::cancel;
    context.onCancel(cancel);
    try {
      for (int i = 0; i < rows.size(); i++) {
        binder.bind(ps, i * binder.parameterCount(), rows.get(i), lines.get(i));
      }
      try {
        boolean isResult = ps.execute();
        for (int i = 0; i < rows.size(); i++) {
          if (!isResult) {
            throw new SQLException(
                "the database returned no rows for execution " + (i + 1) + " of a batch");
          }
          try (ResultSet rs = ps.getResultSet()) {
            export.rows(rs);
          }
          isResult = ps.getMoreResults();
        }
      } catch (SQLException e) {
        throw new SQLException(
            "with the parameters of "
                + extract.inputFileName()
                + " lines "
                + lines.get(0)
                + "-"
                + lines.get(lines.size() - 1)
                + ": "
                + e.getMessage(),
            e.getSQLState(),
            e);
      }
    } finally {
      context.clearOnCancel(cancel);
      if (!whole) {
        ps.close();
      }
    }
    rows.clear();
    lines.clear();
  }

  /**
   * One statement for the whole batch: the keys as an array. Each value is first bound to the
   * single statement, so a bad value fails exactly as it would per row (file, line, parameter).
   */
  private void executeOverKeys(
      ParameterBinder binder,
      List<String[]> rows,
      List<Long> lines,
      ResultExport export,
      StepContext context)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    Object[] keys = new Object[rows.size()];
    for (int i = 0; i < keys.length; i++) {
      binder.bind(single, rows.get(i), lines.get(i));
      keys[i] = rows.get(i)[0];
    }
    AutoCloseable cancel = full::cancel;
    context.onCancel(cancel);
    try {
      full.setArray(1, connection.createArrayOf(keyArray, keys));
      try (ResultSet rs = full.executeQuery()) {
        export.rows(rs);
      } catch (SQLException e) {
        throw new SQLException(
            "with the parameters of "
                + extract.inputFileName()
                + " lines "
                + lines.get(0)
                + "-"
                + lines.get(lines.size() - 1)
                + ": "
                + e.getMessage(),
            e.getSQLState(),
            e);
      }
    } finally {
      context.clearOnCancel(cancel);
    }
    rows.clear();
    lines.clear();
  }

  private PreparedStatement full() throws SQLException {
    if (full == null) {
      full = prepare(batch);
    }
    return full;
  }

  private PreparedStatement prepare(int executions) throws SQLException {
    return connection.prepareStatement(
        String.join(";\n", Collections.nCopies(executions, statement)));
  }

  private static String withoutFinalSemicolon(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }
}
