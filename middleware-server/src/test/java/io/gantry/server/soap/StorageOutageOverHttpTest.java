package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.testing.Await;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.server.GantryTestServer;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server notices its own storage failing: it refuses new work with a SOAP fault and a 503 page,
 * never acknowledges a job it could not keep, and takes work again by itself once the storage is
 * back.
 */
class StorageOutageOverHttpTest {
  static final Duration LIMIT = Duration.ofSeconds(30);
  static final Map<String, String> FAST_CHECKS = Map.of("storage.check-interval", "PT0.2S");

  @TempDir Path dir;

  private static String submitEcho(JobManagement client) throws Exception {
    return client.submitJob(TestJobs.job("echo").shell("echo hello", 30).document());
  }

  /** Submits until the server refuses (at most a few check intervals), returning its fault. */
  private static SOAPFaultException awaitRefusal(JobManagement client) {
    return Await.value(
            "a submission refused on failing storage",
            Duration.ofSeconds(40),
            () -> refusal(client),
            Optional::isPresent,
            none -> "every job was acknowledged")
        .orElseThrow();
  }

  private static Optional<SOAPFaultException> refusal(JobManagement client) throws Exception {
    try {
      submitEcho(client);
      return Optional.empty();
    } catch (SOAPFaultException e) {
      return Optional.of(e);
    }
  }

  /** Submits until the server accepts again, and checks that the job runs to the end. */
  private static void awaitRecovery(JobManagement client) {
    String id =
        Await.value(
            "a submission accepted again",
            Duration.ofSeconds(20),
            () -> {
              try {
                return submitEcho(client);
              } catch (SOAPFaultException e) {
                return null;
              }
            },
            java.util.Objects::nonNull);
    var status = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, status.state, status.failureReason);
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aDataDirectoryMovedAwayRefusesNewWorkAndItsReturnRestoresService() throws Exception {
    Path data = dir.resolve("server");
    Path away = dir.resolve("moved-away");
    try (GantryTestServer server =
        GantryTestServer.builder(dir).dataDir(data).settings(FAST_CHECKS).start()) {
      JobManagement client = JobManagementClients.of(server);
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, submitEcho(client), LIMIT).state);

      Files.move(data, away);
      SOAPFaultException fault =
          assertThrows(
              SOAPFaultException.class,
              () -> submitEcho(client),
              "a job submitted right after the data directory went must not be acknowledged");
      assertTrue(fault.getMessage().contains("storage is failing"), fault.getMessage());
      assertTrue(fault.getMessage().contains("the data directory is gone"), fault.getMessage());
      HttpResponse<String> page = get(server.url().replace("/services/JobManagement", "/jobs"));
      assertEquals(503, page.statusCode());
      assertTrue(page.body().contains("Service unavailable"), page.body());

      Files.move(away, data);
      awaitRecovery(client);
    }
  }

  @Test
  void aDeletedDataDirectoryNeverLetsAJobBeAcknowledged() throws Exception {
    Path data = dir.resolve("server");
    try (GantryTestServer server =
        GantryTestServer.builder(dir).dataDir(data).settings(FAST_CHECKS).start()) {
      JobManagement client = JobManagementClients.of(server);
      Path trash = dir.resolve("trash");
      Files.move(
          data, trash); // gone at once, then deleted: the watch's probe file cannot race the delete
      deleteTree(trash);
      SOAPFaultException fault = assertThrows(SOAPFaultException.class, () -> submitEcho(client));
      assertTrue(fault.getMessage().contains("storage is failing"), fault.getMessage());
      Files.createDirectories(data); // an empty directory is not the one with the keys and jobs
      Thread.sleep(600);
      fault = awaitRefusal(client);
      assertTrue(
          fault.getMessage().contains("was replaced since the server started"), fault.getMessage());
    }
  }

  @Test
  void aFullDiskUnderTheH2JobStoreRefusesNewWorkUntilSpaceIsFreed() throws Exception {
    Path mount = Files.createDirectories(dir.resolve("small-disk"));
    assumeTrue(
        run("mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", mount.toString()) == 0,
        "needs permission to mount a tmpfs");
    try {
      Path data = mount.resolve("server");
      Map<String, String> settings = new HashMap<>(FAST_CHECKS);
      settings.put("staging.min-free-bytes", "1M");
      try (GantryTestServer server =
          GantryTestServer.builder(mount).dataDir(data).settings(settings).start()) {
        JobManagement client = JobManagementClients.of(server);
        Path filler = mount.resolve("filler");
        fill(filler);
        SOAPFaultException fault = awaitRefusal(client);
        assertTrue(fault.getMessage().contains("storage is failing"), fault.getMessage());
        Files.delete(filler);
        awaitRecovery(client);
      }
    } finally {
      run("umount", "-l", mount.toString());
    }
  }

  @Test
  void aPostgresJobStoreTurnedReadOnlyRefusesNewWorkAndRecoversWhenWritableAgain()
      throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    String database = postgres.createDatabase();
    Map<String, String> settings = new HashMap<>(FAST_CHECKS);
    settings.put("store.url", postgres.jdbcUrl(database));
    settings.put("store.user", postgres.user());
    try (GantryTestServer server = GantryTestServer.builder(dir).settings(settings).start()) {
      JobManagement client = JobManagementClients.of(server);
      assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, submitEcho(client), LIMIT).state);

      readOnly(postgres, database, true);
      SOAPFaultException fault = awaitRefusal(client);
      assertTrue(fault.getMessage().contains("storage is failing"), fault.getMessage());
      readOnly(postgres, database, false);
      awaitRecovery(client);
    }
  }

  @Test
  void aStoppedPostgresJobStoreRefusesNewWorkWithAFaultNotAnErrorPage() throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start();
    try {
      String database = postgres.createDatabase();
      Map<String, String> settings = new HashMap<>(FAST_CHECKS);
      settings.put("store.url", postgres.jdbcUrl(database));
      settings.put("store.user", postgres.user());
      // the submission and the watch's probe each wait this long for a connection, not 10 s
      settings.put("store.connection-timeout", "PT2S");
      try (GantryTestServer server = GantryTestServer.builder(dir).settings(settings).start()) {
        JobManagement client = JobManagementClients.of(server);
        assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, submitEcho(client), LIMIT).state);
        postgres.close();
        SOAPFaultException fault = awaitRefusal(client);
        assertTrue(fault.getMessage().contains("storage is failing"), fault.getMessage());
        assertTrue(fault.getMessage().contains("the job store cannot be"), fault.getMessage());
        String web = server.url().replace("/services/JobManagement", "/jobs");
        // until the watch's own probe has failed too
        Await.value(
            "the web pages to answer 503",
            Duration.ofSeconds(40),
            () -> get(web).statusCode(),
            code -> code == 503);
      }
    } finally {
      postgres.close();
    }
  }

  /**
   * The job store goes away (no connection to be had, as while its database restarts) as a job's
   * program ends, with a second job queued behind it for the one slot: once the store is back, the
   * first job's end is stored, its stage-out runs once, and the second job runs.
   */
  @Test
  void aProgramThatEndsWhileTheJobStoreIsAwayIsRecordedAndStagedOutOnceWhenItReturns()
      throws Exception {
    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    String database = postgres.createDatabase();
    RiskDatabase risk = RiskDatabase.h2File(dir);
    Map<String, String> settings = new HashMap<>(FAST_CHECKS);
    settings.putAll(risk.dataSourceSettings());
    settings.put("store.url", postgres.jdbcUrl(database));
    settings.put("store.user", postgres.user());
    settings.put("store.connection-timeout", "PT1S");
    settings.put("slots.total", "1");
    try (GantryTestServer server = GantryTestServer.builder(dir).settings(settings).start()) {
      JobManagement client = JobManagementClients.of(server);
      String first =
          client.submitJob(
              TestJobs.job("ends-unstored")
                  .shell(
                      "while [ ! -e release ]; do sleep 0.1; done;"
                          + " printf 'job_id,value_at_risk\\n%s,7\\n' \"$GANTRY_JOB_ID\" >"
                          + " result.csv",
                      60)
                  .sqlStageOut(
                      RiskDatabase.NAME,
                      "INSERT INTO job_result (job_id, value_at_risk) VALUES (?, ?)",
                      "result.csv")
                  .document());
      TestJobs.await(client, first, LIMIT, s -> s.state == JobStateName.RUNNING, "RUNNING");
      String second = submitEcho(client);

      acceptsConnections(postgres, database, false);
      Files.writeString(server.jobDirectory(first).resolve("release"), "go");
      Await.value(
          "the server to find the job store away as the program ended",
          LIMIT,
          server::log,
          log -> log.contains("could not move job " + first + " to STAGING_OUT"));
      acceptsConnections(postgres, database, true);
      Await.value(
          "the server to answer again",
          Duration.ofSeconds(20),
          () -> {
            try {
              return client.getJobStatus(first);
            } catch (SOAPFaultException refusedMeanwhile) {
              return null;
            }
          },
          java.util.Objects::nonNull);

      var end = awaitFinal(client, first, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
      assertEquals(
          1,
          risk.count("SELECT COUNT(*) FROM job_result WHERE job_id = '" + first + "'"),
          "its stage-out ran once");
      var behind = awaitFinal(client, second, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, behind.state, behind.failureReason);
    }
  }

  /**
   * Lets new sessions connect to the database or not (not: a connection pool has none to give, as
   * while the database restarts), and ends the sessions open now.
   */
  private static void acceptsConnections(
      EmbeddedPostgresServer postgres, String database, boolean on) throws Exception {
    try (Connection c = postgres.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS " + on);
      if (!on) {
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                + database
                + "'");
      }
    }
  }

  /** Makes the database read-only for every new session, and ends the sessions open now. */
  private static void readOnly(EmbeddedPostgresServer postgres, String database, boolean on)
      throws Exception {
    try (Connection c = postgres.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute(
          "ALTER DATABASE "
              + database
              + " SET default_transaction_read_only = "
              + (on ? "on" : "off"));
      s.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + database
              + "'");
    }
  }

  private static void fill(Path file) throws IOException {
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException e) {
      // full: that is the point
    }
  }

  private static int run(String... command) throws Exception {
    return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor();
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
