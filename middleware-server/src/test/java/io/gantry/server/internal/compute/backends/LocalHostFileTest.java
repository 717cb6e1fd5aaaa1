package io.gantry.server.internal.compute.backends;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.server.internal.scheduler.JobFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's own host file under the local backend may describe this host only. */
class LocalHostFileTest {
  @TempDir Path jobDir;

  @Test
  void aHostFileOfThisHostWithItsSlotsIsAccepted() throws Exception {
    Path hosts =
        Files.writeString(
            jobDir.resolve("hosts.txt"),
            "# Open MPI host file served by the demo remote host\nlocalhost slots=2\n127.0.0.1 slots=1 # loopback\n\n");
    assertDoesNotThrow(() -> LocalHostFile.check(jobDir, hosts));
  }

  @Test
  void aHostFileNamingOtherHostsIsRefusedNamingThem() throws Exception {
    Path hosts =
        Files.writeString(
            jobDir.resolve("hosts.txt"), "localhost slots=2\nnode7 slots=8\n10.1.2.3\n");
    JobFailure e = assertThrows(JobFailure.class, () -> LocalHostFile.check(jobDir, hosts));
    assertEquals(
        "HostFile hosts.txt names 10.1.2.3, node7; this server's compute backend is local and runs every"
            + " rank on this host (give localhost, or leave HostFile out)",
        e.getMessage());
  }

  @Test
  void aHostFileThatIsALinkIsNotFollowed() throws Exception {
    Path outside =
        Files.writeString(
            jobDir.resolveSibling(jobDir.getFileName() + "-outside.txt"), "localhost\n");
    Path link = Files.createSymbolicLink(jobDir.resolve("hosts.txt"), outside);
    JobFailure e = assertThrows(JobFailure.class, () -> LocalHostFile.check(jobDir, link));
    assertEquals(
        true, e.getMessage().startsWith("HostFile hosts.txt cannot be read"), e.getMessage());
    Files.delete(outside);
  }
}
