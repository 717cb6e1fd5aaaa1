package io.gantry.server.internal.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.NamedDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's staging accounts hold least privilege in the database itself, the second line behind
 * the SQL checks: a statement that got past them still cannot read files, create Java aliases, drop
 * tables or write where it should only read.
 */
class DemoMarketAccountsTest {
  @TempDir Path dir;
  DemoMarket market;
  NamedDataSource source;

  @BeforeEach
  void create() throws Exception {
    market = new DemoMarket(dir, 20);
    market.createIfMissing();
    source = market.dataSource();
  }

  private Connection reader() throws SQLException {
    return DriverManager.getConnection(
        source.jdbcUrl(), source.reader().user(), new String(source.reader().password().read()));
  }

  private Connection writer() throws SQLException {
    return DriverManager.getConnection(
        source.jdbcUrl(), source.user(), new String(source.password().read()));
  }

  @Test
  void stageInReadsWithAnAccountThatCanOnlyReadTheMarket() throws Exception {
    assertEquals(DemoMarket.READER, source.reader().user());
    try (Connection c = reader();
        Statement s = c.createStatement()) {
      s.executeQuery("select count(*) from position").close();
      s.executeQuery("select count(*) from position_factor").close(); // the view
      s.executeQuery("select count(*) from node_ancestor").close();
      for (String attack :
          new String[] {
            "select utf8tostring(file_read('"
                + dir.resolve(DemoMarket.WRITER + ".password")
                + "'))",
            "call csvwrite('" + dir.resolve("out.csv") + "', 'select 1')",
            "create alias pwn as 'String pwn() { return \"\"; }'",
            "drop table var_summary",
            "delete from position",
            "insert into var_summary values ('x', 0.99, 1, 1, 0, 1, 1)",
            "select * from var_summary"
          }) {
        assertThrows(SQLException.class, () -> s.execute(attack), attack);
      }
    }
    assertTrue(Files.notExists(dir.resolve("out.csv")));
  }

  @Test
  void stageOutWritesWithAnAccountThatCanOnlyAddResults() throws Exception {
    try (Connection c = writer();
        Statement s = c.createStatement()) {
      assertEquals(
          1, s.executeUpdate("insert into var_summary values ('job-1', 0.99, 1, 1, 0, 1, 1)"));
      assertEquals(
          1,
          s.executeUpdate(
              "insert into var_node_summary values ('job-1', date '2026-11-20', 'BANK', 0.99,"
                  + " 1, 1, null, null, 0, 1, 1, null, null)"));
      for (String attack :
          new String[] {
            "select * from position",
            "delete from var_summary",
            "delete from var_node_summary",
            "select * from var_run",
            "update var_summary set var = 0",
            "drop table var_summary",
            "select file_read('/etc/hostname')",
            "create table gantry_other (x int)"
          }) {
        assertThrows(SQLException.class, () -> s.execute(attack), attack);
      }
    }
  }

  @Test
  void theAccountsPasswordsAreRandomAndOwnerOnly() throws Exception {
    for (String account : new String[] {DemoMarket.READER, DemoMarket.WRITER}) {
      Path file = dir.resolve(account + ".password");
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertTrue(Files.readString(file).length() >= 32);
    }
    new DemoMarket(dir, 20).createIfMissing(); // a restart keeps the passwords
    try (Connection c = reader()) {
      assertTrue(c.isValid(1));
    }
  }
}
