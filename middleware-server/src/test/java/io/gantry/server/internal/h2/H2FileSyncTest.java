package io.gantry.server.internal.h2;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.H2Databases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link H2FileSync} acts on an H2 file in this JVM only: the other databases a data source can be
 * (PostgreSQL, H2 in memory) are left as their commit left them, with no error.
 */
class H2FileSyncTest {

  @TempDir Path dir;

  /**
   * The demo's stage-out account is no administrator (CHECKPOINT is refused to it) and its URL goes
   * through H2's {@code retry:} file system: the sync works for it all the same.
   */
  @Test
  void syncsTheDemoDatabaseAsItsStageOutAccount() throws Exception {
    DemoMarket market = new DemoMarket(dir, 20);
    market.createIfMissing();
    NamedDataSource source = market.dataSource();
    try (Connection writer =
            DriverManager.getConnection(
                source.jdbcUrl(), source.user(), new String(source.password().read()));
        Statement s = writer.createStatement()) {
      assertThrows(SQLException.class, () -> s.execute("CHECKPOINT SYNC"));
      s.executeUpdate("insert into var_summary values ('job-1', 0.99, 1, 1, 0, 1, 1)");
      new H2FileSync().afterCommit(writer);
      Path crash = Files.createDirectories(dir.resolve("crash"));
      Files.copy(dir.resolve("market.mv.db"), crash.resolve("market.mv.db"));
    }
    try (Connection copy =
            DriverManager.getConnection(
                "jdbc:h2:file:" + dir.resolve("crash/market") + ";DATABASE_TO_LOWER=TRUE",
                "sa",
                "");
        Statement s = copy.createStatement();
        ResultSet rs = s.executeQuery("select count(*) from var_summary where run_id = 'job-1'")) {
      rs.next();
      assertEquals(1, rs.getInt(1));
    }
  }

  @Test
  void leavesPostgresqlAndH2InMemoryAsTheyWere() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    try (Connection pg = postgres.connect(postgres.createDatabase());
        Connection memory = H2Databases.connect(H2Databases.newInMemoryUrl())) {
      for (Connection c : new Connection[] {pg, memory}) {
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE t(id INT)");
          s.execute("INSERT INTO t VALUES (1)");
        }
        assertDoesNotThrow(() -> new H2FileSync().afterCommit(c));
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
          rs.next();
          assertEquals(1, rs.getInt(1), c.getMetaData().getDatabaseProductName());
        }
      }
    }
  }
}
