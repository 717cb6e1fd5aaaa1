package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Staging SQL that would reach past its lane (a second statement, a file or code function of H2 or
 * PostgreSQL, a write hidden in a query) is refused at validation, at the SQLStatement's
 * line:column. Each case here worked against the demo database before the parser checked SQL.
 */
class StagingSqlAttackTest {
  private static final String QUERY = "SELECT id FROM book WHERE name = 'A?'";
  private static final String UPDATE = "INSERT INTO result (id, value) VALUES (?, ?)";
  private static final String AT_QUERY =
      "line 37:9 JobDefinition/JobDescription/PreDataStaging/SQLQueryDataStaging[1]/SQLStatement: ";
  private static final String AT_UPDATE =
      "line 66:9 JobDefinition/JobDescription/PostDataStaging/SQLUpdateDataStaging/SQLStatement: ";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT 1; DROP TABLE var_summary",
        "SELECT 1 /* harmless */; DROP TABLE var_summary",
        "SELECT 1; -- nothing here\nDROP TABLE var_summary",
        "SELECT id FROM book; CREATE ALIAS EXEC AS 'String exec(String c) throws Exception { return \"\"; }'",
        "SELECT UTF8TOSTRING(FILE_READ('/var/lib/gantry/tls/keystore.password'))",
        "SELECT FILE_READ('/etc/passwd') FROM book",
        "SELECT id FROM book WHERE name IN (SELECT FILE_READ('/etc/passwd'))",
        "SELECT * FROM CSVREAD('/etc/passwd')",
        "SELECT CSVWRITE('/tmp/x.csv', 'SELECT 1')",
        "SELECT FILE_WRITE('x', '/tmp/x')",
        "SELECT LINK_SCHEMA('s', '', 'jdbc:h2:mem:x', 'sa', '', 'PUBLIC')",
        "CALL CSVWRITE('/tmp/x.csv', 'SELECT 1')",
        "RUNSCRIPT FROM '/tmp/evil.sql'",
        "SCRIPT TO '/tmp/dump.sql'",
        "CREATE ALIAS EXEC AS 'String exec(String c) { return c; }'",
        "SELECT pg_read_file('/etc/passwd')",
        "SELECT pg_catalog.pg_read_file('/etc/passwd')",
        "SELECT \"pg_read_file\"('/etc/passwd')",
        "SELECT pg_read_binary_file('/etc/passwd')",
        "SELECT pg_ls_dir('/')",
        "SELECT lo_import('/etc/passwd')",
        "SELECT lo_export(16400, '/tmp/x')",
        "SELECT * FROM dblink('host=evil', 'SELECT 1') AS t(x int)",
        "SELECT set_config('default_transaction_read_only', 'off', false)",
        "SELECT pg_sleep(3600)",
        "SELECT query_to_xml('SELECT pg_read_file(''/etc/passwd'')', true, true, '')",
        "COPY book TO PROGRAM 'id > /tmp/pwned'",
        "COPY (SELECT 1) TO PROGRAM 'id'",
        "SELECT id INTO copied FROM book",
        "SELECT id FROM book FOR UPDATE",
        "WITH gone AS (DELETE FROM book RETURNING id) SELECT id FROM gone",
        "SELECT NEXT VALUE FOR seq",
        "SELECT nextval('seq')",
        "SELECT $$a$$; DROP TABLE book",
        "SELECT 'a'';DROP TABLE book;--'; DROP TABLE book",
        "DROP TABLE var_summary",
        "SELECT 1 FROM book WHERE 1 = (SELECT COUNT(*) FROM book WHERE FILE_READ('/x') IS NULL)",
        "SELECT FILE_READ('/x') OVER () FROM book",
        "SELECT id FROM book ORDER BY FILE_READ('/x')",
        "SELECT CASE WHEN id > 0 THEN FILE_READ('/x') END FROM book",
        "SELECT id FROM book b JOIN book c ON FILE_READ('/x') IS NOT NULL",
        "(SELECT id FROM book) UNION (SELECT FILE_READ('/x'))",
        "VALUES (FILE_READ('/x'))",
      })
  void queriesThatReachOutOfTheirLaneAreRefusedAtTheirPosition(String sql) {
    String problem = firstError(JsdlDocuments.baseJob().replace(QUERY, xml(sql)));
    assertTrue(
        problem.startsWith(AT_QUERY + "SQLQueryDataStaging reads data; this SQLStatement "),
        problem);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "INSERT INTO result (id, value) VALUES (?, ?); DROP TABLE result",
        "INSERT INTO result (id, value) VALUES (?, FILE_READ(?))",
        "INSERT INTO result (id, value) SELECT ?, pg_read_file(?)",
        "UPDATE result SET value = lo_import(?) WHERE id = ?",
        "WITH d AS (DELETE FROM other RETURNING id) INSERT INTO result (id, value) SELECT ?, ? FROM d",
        "CREATE ALIAS X AS 'void x(String a, String b) {}'",
        "SELECT ?, ?",
        "CALL CSVWRITE(?, ?)",
      })
  void updatesThatReachOutOfTheirLaneAreRefusedAtTheirPosition(String sql) {
    String problem = firstError(JsdlDocuments.baseJob().replace(UPDATE, xml(sql)));
    assertTrue(
        problem.startsWith(AT_UPDATE + "SQLUpdateDataStaging writes results; this SQLStatement "),
        problem);
  }

  @Test
  void theReasonNamesTheFunctionAndWhatItDoes() {
    String problem =
        firstError(
            JsdlDocuments.baseJob()
                .replace(
                    QUERY, xml("SELECT UTF8TOSTRING(FILE_READ('/data/tls/keystore.password'))")));
    assertTrue(
        problem.contains("calls FILE_READ, which reads files on the database server"), problem);
  }

  @Test
  void aSecondStatementIsCountedNotSkipped() {
    String problem =
        firstError(JsdlDocuments.baseJob().replace(QUERY, "SELECT 1; DROP TABLE var_summary"));
    assertEquals(
        AT_QUERY
            + "SQLQueryDataStaging reads data; this SQLStatement holds 2 statements;"
            + " stage-in SQL must be exactly one query: SELECT, WITH ... SELECT or VALUES",
        problem);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT position_id, instrument, factor_id, rate_factor_id, quantity, strike, maturity_years, volatility"
            + " FROM position WHERE portfolio_id = 'DESK-1' ORDER BY position_id",
        "SELECT name, value FROM var_run_parameter WHERE run_name = 'daily'",
        "SELECT factor_id FROM position WHERE portfolio_id = 'DESK-1' UNION"
            + " SELECT rate_factor_id FROM position WHERE portfolio_id = 'DESK-1' AND rate_factor_id IS NOT NULL",
        "WITH recent AS (SELECT id, MAX(price) AS p FROM quote GROUP BY id) SELECT id, p FROM recent",
        "VALUES (1, 'a'), (2, 'b')",
        "SELECT id, ROW_NUMBER() OVER (PARTITION BY kind ORDER BY id) FROM book -- a comment; DROP TABLE x",
        "SELECT COALESCE(name, 'none'), CAST(id AS VARCHAR(10)), UPPER(name) FROM book /* ; */",
        "SELECT 'FILE_READ(''x'')' AS text_not_a_call FROM book",
        "SELECT id FROM book;",
      })
  void ordinaryQueriesPass(String sql) {
    assertTrue(errors(JsdlDocuments.baseJob().replace(QUERY, xml(sql))).isEmpty());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "INSERT INTO var_pnl_distribution (run_id, bin, lower, upper, count) VALUES (?, ?)",
        "INSERT INTO var_summary (run_id, confidence, var, expected_shortfall) VALUES (?, ?)",
        "UPDATE result SET value = ? WHERE id = ?",
        "DELETE FROM result WHERE id = ? AND value = ?",
        "MERGE INTO result r USING (SELECT ? AS id, ? AS value) s ON r.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET value = s.value WHEN NOT MATCHED THEN INSERT (id, value) VALUES (s.id, s.value)",
      })
  void ordinaryUpdatesPass(String sql) {
    assertTrue(errors(JsdlDocuments.baseJob().replace(UPDATE, xml(sql))).isEmpty());
  }

  @Test
  void anOperatorMayAllowMoreFunctions() {
    String job = JsdlDocuments.baseJob().replace(QUERY, "SELECT fx_rate(id) FROM book");
    assertTrue(firstError(job).contains("calls fx_rate, which is not among the functions"));
    StagingPolicy withFx =
        new StagingPolicy() {
          @Override
          public Optional<String> inlineDataSourceProblem(String jdbcUrl) {
            return Optional.empty();
          }

          @Override
          public Optional<String> remoteHostProblem(String host, int port) {
            return Optional.empty();
          }

          @Override
          public java.util.Set<String> extraSqlFunctions() {
            return java.util.Set.of("FX_RATE");
          }
        };
    assertTrue(new JsdlParser(ParserOptions.defaults(), withFx).parse(job).isValid());
  }

  private static String xml(String sql) {
    return sql.replace("&", "&amp;").replace("<", "&lt;");
  }

  private static List<String> errors(String document) {
    return new JsdlParser()
        .parse(document).report().problems().stream()
            .filter(p -> p.severity() == Severity.ERROR)
            .map(Problem::toString)
            .toList();
  }

  private static String firstError(String document) {
    List<String> errors = errors(document);
    assertTrue(!errors.isEmpty(), "expected the document to be refused");
    return errors.get(0);
  }
}
