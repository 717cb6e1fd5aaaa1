package io.gantry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash of the real PostgreSQL (kill -9 of its postmaster): a connection open at the crash is
 * cut, what was committed before it is there after the restart, on the same port.
 */
class RestartablePostgresServerTest {
  @TempDir Path dir;

  @Test
  void aCrashCutsOpenSessionsAndKeepsWhatWasCommitted() throws Exception {
    try (RestartablePostgresServer pg = RestartablePostgresServer.start(dir.resolve("pg"))) {
      int port = pg.port();
      long postmaster =
          Long.parseLong(Files.readAllLines(dir.resolve("pg/postmaster.pid")).get(0).strip());
      try (Connection before = pg.connect("postgres");
          Statement s = before.createStatement()) {
        s.execute("CREATE TABLE t (v INT)");
        s.execute("INSERT INTO t VALUES (1)");
        pg.crashAndRestart();
        assertFalse(
            ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false),
            "the old postmaster was killed");
        assertTrue(isCut(s), "the session open at the crash was cut");
      }
      assertEquals(port, pg.port());
      try (Connection after = pg.connect("postgres");
          Statement s = after.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t WHERE v = 1")) {
        rs.next();
        assertEquals(1, rs.getInt(1), "the committed row survived the crash");
      }
    }
  }

  private static boolean isCut(Statement s) {
    try {
      s.execute("SELECT 1");
      return false;
    } catch (SQLException cut) {
      return true;
    }
  }
}
