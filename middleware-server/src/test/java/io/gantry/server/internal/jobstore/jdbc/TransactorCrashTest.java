package io.gantry.server.internal.jobstore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every durable write of the {@link Transactor} on an H2 file is found again when the file is
 * opened as a crash leaves it.
 *
 * <p>A {@code kill -9} leaves the file as the operating system has it, so a copy of the file taken
 * right after a write returned is what the next server would open (without the machine crashing
 * too, which the fsync covers). Rows of varied sizes, older ones deleted, with H2's retention time
 * 0, make H2 reuse space in the file from the first commits, as a job store running for minutes
 * does (H2 keeps freed space 45 s by default): there H2 used to leave the file header naming a
 * chunk from which the newest commit was not found ({@link
 * io.gantry.server.internal.h2.H2FileHeader}; without it this test lost 22 of 40 writes, the first
 * one among them).
 */
class TransactorCrashTest {
  @TempDir Path dir;

  @Test
  void everyDurableWriteIsInTheFileAsACrashLeavesIt() throws Exception {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:file:" + dir.resolve("store") + ";DB_CLOSE_ON_EXIT=FALSE");
    h2.setUser("sa");
    try (Connection held = h2.getConnection(); // keeps the database open between writes
        Statement s = held.createStatement()) {
      s.execute("SET RETENTION_TIME 0");
      s.execute("CREATE TABLE acked(id INT PRIMARY KEY, pad VARCHAR(100000))");
      Transactor tx = new Transactor(h2);
      Random sizes = new Random(7);
      List<Integer> lost = new ArrayList<>();
      for (int id = 1; id <= 25; id++) {
        int row = id;
        String pad = "x".repeat(sizes.nextInt(3) == 0 ? sizes.nextInt(60_000) : sizes.nextInt(300));
        boolean delete = row > 5 && sizes.nextBoolean();
        tx.write(
            "add row " + row,
            c -> {
              try (PreparedStatement add = c.prepareStatement("INSERT INTO acked VALUES (?, ?)");
                  PreparedStatement old = c.prepareStatement("DELETE FROM acked WHERE id = ?")) {
                add.setInt(1, row);
                add.setString(2, pad);
                add.executeUpdate();
                if (delete) {
                  old.setInt(1, row - 5);
                  old.executeUpdate();
                }
              }
              return null;
            });
        if (!foundAfterCrash(row)) {
          lost.add(row);
        }
      }
      assertEquals(List.of(), lost, "acknowledged writes not found in the file after a crash");
    }
  }

  private boolean foundAfterCrash(int row) throws Exception {
    Path crash = Files.createDirectories(dir.resolve("crash-" + row));
    Files.copy(dir.resolve("store.mv.db"), crash.resolve("store.mv.db"));
    try (Connection c =
            java.sql.DriverManager.getConnection(
                "jdbc:h2:file:" + crash.resolve("store"), "sa", "");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM acked WHERE id = " + row)) {
      rs.next();
      return rs.getInt(1) == 1;
    } finally {
      try (var files = Files.list(crash)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
    }
  }
}
