package io.gantry.server.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/**
 * docs/task-farms.md's example as shipped (jsdl-schema/examples/price-instruments-farm.jsdl): every
 * position of the demo's US equity desk on 2026-11-20 priced as its own task, the values loaded
 * into the demo database's instrument_value.
 */
class PricingFarmExampleTest {
  /**
   * The demo's size: one that other test classes use too, so the build's demo template of that size
   * (DemoMarketTemplates) is made once for all of them; EQ-US holds 30% of it, over five positions.
   */
  private static final int POSITIONS = 50;

  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path PROGRAMS = REPOSITORY.resolve("node-programs/build");

  @TempDir Path dir;

  @Test
  void eachPositionIsPricedAsItsOwnTaskAndLoadedIntoSql() throws Exception {
    assertTrue(
        Files.isExecutable(PROGRAMS.resolve("instrument-price"))
            && Files.isExecutable(PROGRAMS.resolve("gantry-launcher")),
        "build the node programs first (scripts/build)");
    Path dataDir = dir.resolve("server");
    String id;
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .dataDir(dataDir)
            .demo(POSITIONS)
            .settings(Map.of("jobs.allowed-executable-roots", PROGRAMS.toString()))
            .start()) {
      JobManagement client = io.gantry.server.soap.JobManagementClients.of(server);
      String xml =
          Files.readString(REPOSITORY.resolve("jsdl-schema/examples/price-instruments-farm.jsdl"));
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      id =
          client.submitJob(
              new JobDocument(
                  f.newDocumentBuilder()
                      .parse(new InputSource(new StringReader(xml)))
                      .getDocumentElement()));
      JobStatusInfo end =
          Await.value(
              "the pricing farm to end",
              Duration.ofMinutes(3),
              () -> client.getJobStatus(id),
              s -> io.gantry.server.soap.TestJobs.isFinal(s.state),
              s -> s.state + " " + s.phase);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    }
    // the demo database is a file of the server's: read once it has stopped
    try (Connection c =
            DriverManager.getConnection(
                new DemoMarket(dataDir.resolve("demo"), POSITIONS).jdbcUrl(), "sa", "");
        Statement s = c.createStatement()) {
      long positions =
          count(
              s,
              "SELECT COUNT(*) FROM position WHERE portfolio_id = 'EQ-US'"
                  + " AND business_date = DATE '2026-11-20'");
      assertTrue(positions > 5, "the demo portfolio has positions: " + positions);
      assertEquals(positions, count(s, "SELECT COUNT(*) FROM instrument_value"));
      assertEquals(
          positions,
          count(
              s,
              "SELECT COUNT(*) FROM instrument_value v JOIN position p"
                  + " ON p.position_id = v.position_id AND p.portfolio_id = 'EQ-US'"
                  + " AND p.business_date = DATE '2026-11-20'"
                  + " WHERE v.state = 'succeeded' AND v.attempts = 1 AND v.value_today IS NOT NULL"),
          "one succeeded row per EQ-US position");
      // spot positions: quantity x level, to the 6 decimals printed
      try (ResultSet rs =
          s.executeQuery(
              "SELECT quantity, spot, value_today FROM instrument_value WHERE instrument = 'spot'")) {
        int spots = 0;
        while (rs.next()) {
          BigDecimal expected =
              rs.getBigDecimal(1).multiply(rs.getBigDecimal(2), MathContext.DECIMAL64);
          assertTrue(
              expected.subtract(rs.getBigDecimal(3)).abs().compareTo(new BigDecimal("0.00001")) < 0,
              "spot value " + rs.getBigDecimal(3) + " vs " + expected);
          spots++;
        }
        assertTrue(spots > 0, "the portfolio has spot positions");
      }
    }
  }

  private static long count(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
