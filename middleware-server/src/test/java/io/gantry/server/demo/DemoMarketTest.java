package io.gantry.server.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoMarketTest {
  @TempDir Path dir;

  @Test
  void createsFactorsTwoYearsOfHistoryAndThePortfolioOnce() throws Exception {
    DemoMarket market = new DemoMarket(dir, 500);
    assertTrue(market.createIfMissing());
    assertFalse(market.createIfMissing(), "a second start must keep the existing database");
    try (Connection c = DriverManager.getConnection(market.jdbcUrl(), "sa", "");
        Statement s = c.createStatement()) {
      assertEquals(39, count(s, "select count(*) from risk_factor"));
      assertEquals(522, count(s, "select count(distinct as_of) from factor_history"));
      assertEquals(39 * 522, count(s, "select count(*) from factor_history"));
      assertEquals(500, count(s, "select count(*) from position where portfolio_id = 'DESK-1'"));
      assertTrue(count(s, "select count(*) from position where instrument in ('call','put')") > 50);
      // today's level in the history equals the factor's current level
      assertEquals(
          0,
          count(
              s,
              "select count(*) from risk_factor f join factor_history h "
                  + "on h.factor_id = f.factor_id and h.as_of = date '2026-11-20' where h.level <> f.level"));
      try (ResultSet rs =
          s.executeQuery(
              "select name, value from var_run_parameter "
                  + "where run_name = 'daily' and name = 'scenarios'")) {
        assertTrue(rs.next());
        assertEquals("name", rs.getMetaData().getColumnLabel(1), "labels are lower case");
      }
    }
  }

  @Test
  void sameSizeGivesTheSameData() throws Exception {
    DemoMarket a = new DemoMarket(dir.resolve("a"), 200);
    DemoMarket b = new DemoMarket(dir.resolve("b"), 200);
    a.createIfMissing();
    b.createIfMissing();
    assertEquals(checksum(a), checksum(b));
  }

  private static String checksum(DemoMarket m) throws Exception {
    try (Connection c = DriverManager.getConnection(m.jdbcUrl(), "sa", "");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "select sum(quantity), sum(coalesce(strike, 0)), "
                    + "(select sum(level) from factor_history) from position")) {
      rs.next();
      return rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getString(3);
    }
  }

  private static long count(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
