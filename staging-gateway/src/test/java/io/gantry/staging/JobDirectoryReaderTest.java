package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacks a job's program can make on the server's reads of its directory: links to the
 * server's secrets, a directory replaced by a link to another one, a FIFO, and a swap after the
 * file was opened.
 */
class JobDirectoryReaderTest {
  @TempDir Path data;
  Path job;
  Path secret;

  @BeforeEach
  void layout() throws IOException {
    Files.createDirectories(data.resolve("tls"));
    secret = Files.writeString(data.resolve("tls/keystore.password"), "the-keystore-password");
    job = Files.createDirectories(data.resolve("jobs/job-1"));
    Files.writeString(job.resolve("stdout.txt"), "hello from the job\n");
    Files.createDirectories(job.resolve("results"));
    Files.writeString(job.resolve("results/var.csv"), "confidence,var\n");
  }

  @Test
  void readsARegularFileAndOneInASubdirectory() throws IOException {
    assertEquals("hello from the job\n", read("stdout.txt"));
    assertEquals("confidence,var\n", read("results/var.csv"));
  }

  @Test
  void stdoutReplacedByALinkToTheKeystorePasswordIsRefused() throws IOException {
    Files.delete(job.resolve("stdout.txt"));
    Files.createSymbolicLink(job.resolve("stdout.txt"), Path.of("../../tls/keystore.password"));
    var e = assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read("stdout.txt"));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
  }

  @Test
  void anAbsoluteLinkToASystemFileIsRefused() throws IOException {
    Files.delete(job.resolve("stdout.txt"));
    Files.createSymbolicLink(job.resolve("stdout.txt"), secret.toAbsolutePath());
    assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read("stdout.txt"));
  }

  @Test
  void aResultsDirectoryReplacedByALinkToADirectoryOutsideIsRefused() throws IOException {
    Files.writeString(data.resolve("tls/var.csv"), "outside");
    Files.delete(job.resolve("results/var.csv"));
    Files.delete(job.resolve("results"));
    Files.createSymbolicLink(job.resolve("results"), Path.of("../../tls"));
    var e =
        assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read("results/var.csv"));
    assertTrue(e.getMessage().contains("'results' on its way"), e.getMessage());
  }

  @Test
  void theJobDirectoryItselfReplacedByALinkIsRefused() throws IOException {
    Path moved = data.resolve("jobs/elsewhere");
    Files.move(job, moved);
    Files.createSymbolicLink(job, data.resolve("tls"));
    assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read("keystore.password"));
  }

  @Test
  void aFifoInsteadOfAFileIsRefusedWithoutWaitingForAWriter() throws Exception {
    Files.delete(job.resolve("stdout.txt"));
    Process mkfifo = new ProcessBuilder("mkfifo", job.resolve("stdout.txt").toString()).start();
    assertEquals(0, mkfifo.waitFor());
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          var e =
              assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read("stdout.txt"));
          assertTrue(e.getMessage().contains("FIFO"), e.getMessage());
        });
  }

  @Test
  @SuppressWarnings(
      "StreamResourceLeak") // the directory stream is a try-with-resources resource; the cast hides
  // it
  void aFifoSwappedInAfterTheCheckIsRefusedWithoutWaitingForAWriter() throws Exception {
    Files.delete(job.resolve("stdout.txt"));
    assertEquals(
        0, new ProcessBuilder("mkfifo", job.resolve("stdout.txt").toString()).start().waitFor());
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          try (var dir =
              (java.nio.file.SecureDirectoryStream<Path>) Files.newDirectoryStream(job)) {
            assertThrows(
                JobDirectoryReader.RefusedFileException.class,
                () -> JobDirectoryReader.openChecked(dir, Path.of("stdout.txt"), "stdout.txt"));
          }
        });
  }

  @Test
  void aFileReplacedByALinkAfterOpeningStillReadsTheJobsOwnBytes() throws IOException {
    try (SeekableByteChannel channel = JobDirectoryReader.open(job, "stdout.txt")) {
      Files.delete(job.resolve("stdout.txt"));
      Files.createSymbolicLink(job.resolve("stdout.txt"), secret);
      ByteBuffer buffer = ByteBuffer.allocate(100);
      channel.read(buffer);
      assertArrayEquals(
          "hello from the job\n".getBytes(StandardCharsets.UTF_8),
          java.util.Arrays.copyOf(buffer.array(), buffer.position()));
    }
  }

  @Test
  void dotDotAndAbsoluteNamesAreRefusedBeforeAnythingIsOpened() {
    assertThrows(
        JobDirectoryReader.RefusedFileException.class, () -> read("../../tls/keystore.password"));
    assertThrows(
        JobDirectoryReader.RefusedFileException.class,
        () -> read("results/../../../tls/keystore.password"));
    assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read(secret.toString()));
  }

  @Test
  void aMissingFileIsNoSuchFileAndADirectoryIsRefused() {
    assertThrows(NoSuchFileException.class, () -> read("stderr.txt"));
    assertThrows(NoSuchFileException.class, () -> read("nothing/here.csv"));
    assertThrows(JobDirectoryReader.RefusedFileException.class, () -> read("results"));
  }

  private String read(String name) throws IOException {
    try (SeekableByteChannel channel = JobDirectoryReader.open(job, name)) {
      ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
      while (buffer.hasRemaining() && channel.read(buffer) > 0) {
        // until full
      }
      return new String(buffer.array(), StandardCharsets.UTF_8);
    }
  }
}
