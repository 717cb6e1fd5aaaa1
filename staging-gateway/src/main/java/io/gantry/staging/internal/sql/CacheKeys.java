package io.gantry.staging.internal.sql;

import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/** The stage-in cache's keys, key queries, and how a hit reaches the job directory. */
final class CacheKeys {
  /** Bumped when the staged bytes of the same query could change (CSV format, compression). */
  private static final String FORMAT = "gantry-stage-in-cache 1; csv rfc4180 utf-8 header; bgzf 1";

  private CacheKeys() {}

  /**
   * SHA-256 over, each length-prefixed: the data source's identity (its configured name, or its
   * JDBC URL without secrets) and database account, the statement text, the bound parameter values
   * (the input file's uncompressed bytes), the output format and compression, and the key query
   * with its result. Block size and deflate level do not enter: they are server settings, and a
   * changed setting only means cached files are blocked differently, with their own checksum.
   */
  static String key(SqlExtract extract, DataSourceSpec spec, Path input, String keyResult)
      throws IOException {
    MessageDigest d = sha256();
    String identity =
        extract.dataSource().name() != null
            ? "named " + extract.dataSource().name()
            : "url " + DataSourceSpec.redactUrl(spec.jdbcUrl());
    field(d, FORMAT);
    field(d, identity);
    field(d, spec.user() == null ? "" : spec.user());
    field(d, extract.statement());
    // a template's values change the result as much as the statement does
    field(d, "bound " + extract.boundValues().byMarker());
    if (input == null) {
      field(d, "no input");
    } else {
      try (InputStream in = CompressedFiles.openDecompressed(input)) {
        field(d, "input " + Checksums.sha256(in));
      }
    }
    field(d, extract.outputCompressed() ? "compressed" : "plain");
    field(d, extract.cache().keyQuery() == null ? "" : extract.cache().keyQuery());
    field(d, keyResult);
    return HexFormat.of().formatHex(d.digest());
  }

  /**
   * Every row and column of the key query, as text, in a form that cannot run two values together.
   */
  static String keyQueryResult(Connection connection, String keyQuery, StepContext context)
      throws SQLException, InterruptedException {
    connection.setAutoCommit(false);
    connection.setReadOnly(true);
    StringBuilder b = new StringBuilder();
    try (Statement s = connection.createStatement()) {
      AutoCloseable cancel = s::cancel;
      context.onCancel(cancel);
      try (ResultSet rs = s.executeQuery(keyQuery)) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          context.checkCancelled();
          for (int i = 1; i <= columns; i++) {
            String v = rs.getString(i);
            b.append(v == null ? "N" : "V" + v.length() + ":" + v);
          }
          b.append('\n');
        }
      } catch (SQLException e) {
        throw new SQLException(
            "CacheKeyQuery [" + SqlSteps.abbreviate(keyQuery) + "] failed: " + e.getMessage(),
            e.getSQLState(),
            e);
      } finally {
        context.clearOnCancel(cancel);
      }
    }
    connection.commit();
    return b.toString();
  }

  private static void field(MessageDigest d, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    d.update(Long.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
    d.update((byte) ':');
    d.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
