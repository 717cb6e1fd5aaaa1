package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.testing.server.GantryTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's program may replace its output files with links to the server's secrets, or with a FIFO;
 * getJobOutput, which the server answers with more rights than the job has, must return neither the
 * secret nor hang. The swaps are made here, as the job's program would make them.
 */
class JobFileLinksOverHttpTest {
  static final String SECRET = "keystore-password-that-must-not-leak";

  @TempDir static Path dir;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void start() throws Exception {
    server = GantryTestServer.builder(dir).start();
    client = JobManagementClients.of(server);
    Files.writeString(server.dataDir().resolve("tls").resolve("keystore.password"), SECRET);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Path finishedJob(String name) throws Exception {
    String id =
        client.submitJob(TestJobs.job(name).shell("echo hello; echo oops >&2", 30).document());
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, id, Duration.ofSeconds(30)).state);
    return server.dataDir().resolve("jobs").resolve(id);
  }

  private static String text(OutputChunk chunk) {
    return new String(chunk.data, StandardCharsets.UTF_8);
  }

  @Test
  void stdoutReplacedByALinkToTheKeystorePasswordIsNotRead() throws Exception {
    Path job = finishedJob("link-stdout");
    String id = job.getFileName().toString();
    assertEquals("hello\n", text(client.getJobOutput(id, OutputStreamName.STDOUT, 0, 1000)));
    Files.delete(job.resolve("stdout.txt"));
    Files.createSymbolicLink(job.resolve("stdout.txt"), Path.of("../../tls/keystore.password"));

    OutputChunk chunk = client.getJobOutput(id, OutputStreamName.STDOUT, 0, 1000);
    assertFalse(text(chunk).contains(SECRET), "the keystore password leaked through getJobOutput");
    assertEquals(0, chunk.data.length);
    assertTrue(chunk.note.contains("symbolic link"), chunk.note);
  }

  @Test
  void stderrReplacedByAnAbsoluteLinkToTheKeystorePasswordIsNotRead() throws Exception {
    Path job = finishedJob("link-stderr");
    String id = job.getFileName().toString();
    Path tls = server.dataDir().resolve("tls");
    Files.delete(job.resolve("stderr.txt"));
    Files.createSymbolicLink(job.resolve("stderr.txt"), tls.resolve("keystore.password"));
    OutputChunk chunk = client.getJobOutput(id, OutputStreamName.STDERR, 0, 1000);
    assertFalse(text(chunk).contains(SECRET));
  }

  @Test
  void aFifoInsteadOfStdoutIsAnsweredAtOnce() throws Exception {
    Path job = finishedJob("fifo-stdout");
    String id = job.getFileName().toString();
    Files.delete(job.resolve("stdout.txt"));
    assertEquals(
        0, new ProcessBuilder("mkfifo", job.resolve("stdout.txt").toString()).start().waitFor());
    OutputChunk chunk =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> client.getJobOutput(id, OutputStreamName.STDOUT, 0, 1000));
    assertEquals(0, chunk.data.length);
    assertTrue(chunk.note.contains("FIFO"), chunk.note);
  }
}
