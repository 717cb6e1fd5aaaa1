package io.gantry.staging.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.testing.H2Databases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagingCommandTest {
  @TempDir Path jobDir;

  @Test
  void extractsAndLoadsBackThroughTheCommandLine() throws Exception {
    String url = H2Databases.newInMemoryUrl();
    try (Connection c = H2Databases.connect(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id int, name varchar(20))");
      s.execute("INSERT INTO t VALUES (1, 'one'), (2, NULL)");
      s.execute("CREATE TABLE u (id int, name varchar(20))");
    }
    String dir = jobDir.toString();
    assertEquals(
        0,
        StagingCommand.run(
            new String[] {
              "extract",
              "--url",
              url,
              "--user",
              "sa",
              "--sql",
              "SELECT * FROM t ORDER BY id",
              "--out",
              "t.csv.gz",
              "--compress",
              "--job-dir",
              dir
            }));
    assertEquals(
        0,
        StagingCommand.run(
            new String[] {
              "load",
              "--url",
              url,
              "--user",
              "sa",
              "--sql",
              "INSERT INTO u VALUES (?, ?)",
              "--in",
              "t.csv.gz",
              "--job-id",
              "cli-1",
              "--job-dir",
              dir
            }));
    try (Connection c = H2Databases.connect(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), count(name) FROM u")) {
      rs.next();
      assertEquals(2, rs.getInt(1));
      assertEquals(1, rs.getInt(2), "NULL stays NULL through the file");
    }
    assertEquals(
        1,
        StagingCommand.run(
            new String[] {
              "extract",
              "--url",
              url,
              "--user",
              "sa",
              "--sql",
              "SELECT * FROM t",
              "--out",
              "t.csv.gz",
              "--flag",
              "dontOverwrite",
              "--job-dir",
              dir
            }));
    assertEquals(true, Files.exists(jobDir.resolve("t.csv.gz")));
    assertThrows(
        IllegalArgumentException.class,
        () -> StagingCommand.run(new String[] {"extract", "--url", url}));
  }
}
