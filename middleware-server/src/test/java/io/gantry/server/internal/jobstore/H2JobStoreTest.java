package io.gantry.server.internal.jobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job store on an H2 file database, the default deployment. */
class H2JobStoreTest extends JobStoreContract {
  @TempDir Path dir;
  private JobStoreSettings settings;

  @Override
  protected JdbcJobStore openFreshStore() {
    settings = JobStoreSettings.h2File(dir.resolve("jobs"));
    return JdbcJobStore.open(settings);
  }

  @Override
  protected JdbcJobStore reopenStore() {
    return JdbcJobStore.open(settings);
  }

  @Override
  protected Connection connectDirectly() throws Exception {
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
  }

  @Test
  void theDatabaseLivesInTheConfiguredFile() {
    store.submit("alice", "j", JSDL);
    assertTrue(Files.exists(dir.resolve("jobs.mv.db")));
  }

  @Test
  void aUserThatCannotSyncTheDatabaseIsRefusedAtStart() throws Exception {
    try (Connection admin = connectDirectly()) {
      admin.createStatement().execute("CREATE USER clerk PASSWORD 'pw'");
      admin.createStatement().execute("GRANT ALL ON SCHEMA PUBLIC TO clerk");
    }
    JobStoreSettings clerk = new JobStoreSettings(settings.jdbcUrl(), "clerk", "pw", 2);
    JobStoreException e = assertThrows(JobStoreException.class, () -> JdbcJobStore.open(clerk));
    assertTrue(e.getMessage().contains("admin rights"), e.getMessage());
  }

  /**
   * H2's background writer is off (WRITE_DELAY 0): with it on, a {@code CHECKPOINT SYNC} could
   * return while the writer was still writing the acknowledged commit, which a kill -9 then lost
   * (Transactor). The setting is the database's, so every later connection has it too.
   */
  @Test
  void everyCommitIsWrittenBeforeItReturnsNotLeftToH2sBackgroundWriter() throws Exception {
    try (Connection c = connectDirectly();
        java.sql.ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                        + " WHERE SETTING_NAME = 'WRITE_DELAY'")) {
      assertTrue(rs.next(), "H2 lists WRITE_DELAY");
      assertEquals("0", rs.getString(1));
    }
  }

  /**
   * The per-user limit's count reads only the owner's entries of the V28 indexes, not every
   * unfinished job (H2's plan names the index each count reads).
   */
  @Test
  void theUnfinishedCountReadsTheOwnersIndexes() throws Exception {
    try (Connection c = connectDirectly();
        java.sql.PreparedStatement explain =
            c.prepareStatement("EXPLAIN " + JdbcJobStore.UNFINISHED_COUNT)) {
      explain.setString(1, "alice");
      explain.setString(2, "alice");
      try (java.sql.ResultSet rs = explain.executeQuery()) {
        assertTrue(rs.next());
        String plan = rs.getString(1).toUpperCase(java.util.Locale.ROOT);
        assertTrue(plan.contains("GANTRY_JOB_OWNER_ID_STATE"), plan);
        assertTrue(plan.contains("GANTRY_JOB_OWNER_STATE"), plan);
      }
    }
  }

  @Test
  void aTransitionSurvivesTheServerDyingRightAfterIt() throws Exception {
    store.close();
    // A separate JVM commits a transition and halts at once: no shutdown hooks, no close.
    Process writer =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                CrashingTransitionWriter.class.getName(),
                dir.resolve("jobs").toString())
            .redirectErrorStream(true)
            .start();
    assertTrue(writer.waitFor(60, TimeUnit.SECONDS), "writer did not finish");
    String output = new String(writer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    List<String> lines = output.lines().filter(l -> l.startsWith("JOB ")).toList();
    assertEquals(1, lines.size(), output);
    JobId id = new JobId(lines.get(0).substring(4));

    store = reopenStore();
    assertEquals(JobState.STAGING_IN, store.find(id).orElseThrow().state(), output);
    assertEquals(2, store.history(id).size());
  }
}
