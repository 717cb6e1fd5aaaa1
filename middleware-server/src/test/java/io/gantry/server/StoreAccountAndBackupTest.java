package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.testing.EmbeddedPostgresServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The store's PostgreSQL account as {@code store privileges} makes it runs the store (migrations
 * included) and is no superuser; an online backup of a PostgreSQL store taken while jobs are
 * submitted is one consistent snapshot that restores into an empty database with the same counts
 * and checksums; an offline H2 backup is a copy of the stopped server's jobstore directory.
 */
class StoreAccountAndBackupTest {
  @TempDir Path dir;

  private record Ran(int code, String out, String err) {}

  private static Ran gantryServer(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new GantryServerCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int code = command.execute(args);
    return new Ran(code, out.toString(), err.toString());
  }

  @Test
  void thePrintedAccountRunsTheStoreAndIsNoSuperuser() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    String name = "gantry_account_" + ProcessHandle.current().pid();
    Ran printed = gantryServer("store", "privileges", "--user", name, "--database", name);
    assertEquals(0, printed.code(), printed.err());
    String[] parts = printed.out().split("\\\\connect " + name + "\n");
    assertEquals(2, parts.length, printed.out());
    String superuserUrl = postgres.jdbcUrl("postgres");
    run(superuserUrl, postgres.user(), parts[0]);
    String url = superuserUrl.replace("/postgres", "/" + name);
    run(url, postgres.user(), parts[1]);

    try (JdbcJobStore store = JdbcJobStore.open(new JobStoreSettings(url, name, "", 2))) {
      store.submit("alice", "first", "<JobDefinition/>"); // migrated, then written, as the account
      assertTrue(store.holdsData());
    }
    SQLException refused =
        assertThrows(SQLException.class, () -> run(url, name, "CREATE DATABASE elsewhere;"));
    assertTrue(refused.getMessage().contains("permission denied"), refused.getMessage());

    Ran bad = gantryServer("store", "privileges", "--user", "Robert'); DROP");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("is not a plain PostgreSQL name"), bad.err());
  }

  @Test
  void anOnlineBackupOfAPostgresStoreRestoresWithEqualChecksums() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    String live = postgres.jdbcUrl(postgres.createDatabase());
    AtomicInteger submitted = new AtomicInteger();
    AtomicBoolean writing = new AtomicBoolean(true);
    Ran backup;
    try (JdbcJobStore server =
        JdbcJobStore.open(new JobStoreSettings(live, postgres.user(), "", 2))) {
      for (int i = 0; i < 20; i++) {
        server.submit("alice", "before " + i, "<JobDefinition/>");
      }
      Thread writer =
          new Thread(
              () -> {
                while (writing.get() && submitted.get() < 300) {
                  server.submit("bob", "during", "<JobDefinition/>");
                  submitted.incrementAndGet();
                }
              });
      writer.start();
      try {
        backup =
            gantryServer(
                "store",
                "migrate",
                "--from",
                live,
                "--from-user",
                postgres.user(),
                "--to",
                "jdbc:h2:file:" + dir.resolve("backup").resolve("gantry"));
      } finally {
        writing.set(false);
        writer.join();
      }
    }
    assertEquals(0, backup.code(), backup.err());
    String restored = postgres.jdbcUrl(postgres.createDatabase());
    Ran restore =
        gantryServer(
            "store",
            "migrate",
            "--from",
            "jdbc:h2:file:" + dir.resolve("backup").resolve("gantry"),
            "--to",
            restored,
            "--to-user",
            postgres.user());
    assertEquals(0, restore.code(), restore.err());
    assertEquals(tableLines(backup.out()), tableLines(restore.out()));
    long jobs = jobRows(backup.out());
    assertTrue(jobs >= 20 && jobs <= 20 + submitted.get(), jobs + " of " + submitted.get());
  }

  @Test
  void anOfflineH2BackupIsACopyOfTheJobstoreDirectory() throws Exception {
    Path data = dir.resolve("data");
    try (JdbcJobStore store =
        JdbcJobStore.open(JobStoreSettings.h2File(data.resolve("jobstore").resolve("gantry")))) {
      store.submit("alice", "nightly", "<JobDefinition/>");
    } // the server stopped
    Path restored = dir.resolve("restored");
    Files.createDirectories(restored.resolve("jobstore"));
    try (var files = Files.list(data.resolve("jobstore"))) {
      for (Path f : files.toList()) {
        Files.copy(f, restored.resolve("jobstore").resolve(f.getFileName()));
      }
    }
    Ran original = gantryServer("store", "checksums", "--data-dir", data.toString());
    Ran copy = gantryServer("store", "checksums", "--data-dir", restored.toString());
    assertEquals(0, copy.code(), copy.err());
    assertEquals(original.out(), copy.out());
    assertEquals(1, jobRows(copy.out()));
  }

  private static List<String> tableLines(String printed) {
    return printed.lines().filter(l -> l.startsWith("gantry_")).toList();
  }

  private static long jobRows(String printed) {
    return printed
        .lines()
        .filter(l -> l.startsWith("gantry_job "))
        .mapToLong(l -> Long.parseLong(l.trim().split("\\s+")[1]))
        .findFirst()
        .orElseThrow();
  }

  private static void run(String url, String user, String script) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, "");
        Statement s = c.createStatement()) {
      for (String statement : script.split(";\n")) {
        String sql =
            statement.lines().filter(l -> !l.startsWith("--")).reduce("", (a, b) -> a + b + "\n");
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
    }
  }
}
