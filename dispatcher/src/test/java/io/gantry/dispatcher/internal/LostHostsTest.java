package io.gantry.dispatcher.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gantry.dispatcher.JobOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LostHostsTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  /** Open MPI 4.1's message (help-errmgr-base.txt, node-died) as mpirun prints it. */
  private static final String NODE_DIED =
      "ORTE has lost communication with a remote daemon.\n\n"
          + "  HNP daemon   : [[4711,0],0] on node login\n"
          + "  Remote daemon: [[4711,0],2] on node 10.1.2.12\n\n"
          + "This is usually due to either a failure of the TCP network\n";

  @Test
  void readsEachHostOpenMpiLostOnce() {
    assertEquals(List.of("10.1.2.12"), List.copyOf(LostHosts.hostsIn(NODE_DIED + NODE_DIED)));
    assertEquals(Set.of(), LostHosts.hostsIn("mpirun noticed that process rank 1 exited\n"));
  }

  @Test
  void aFailedJobNamesTheLostHostAndOthersStayAsTheyWere(@TempDir Path dir) throws Exception {
    Path stderr = Files.writeString(dir.resolve("stderr.txt"), "rank 0 started\n" + NODE_DIED);
    JobOutcome failed = new JobOutcome("j", 1, false, false, T, T, 0, null, null);
    assertEquals(
        "exited with code 1 (lost contact with host 10.1.2.12)",
        LostHosts.named(failed, stderr).describe());
    JobOutcome ok = new JobOutcome("j", 0, false, false, T, T, 0, null, null);
    assertSame(ok, LostHosts.named(ok, stderr));
    assertSame(failed, LostHosts.named(failed, dir.resolve("missing")));
  }

  /** The job writes its directory: a stderr replaced by a link or a FIFO is not read. */
  @Test
  void aStderrReplacedByALinkOrAFifoIsNotRead(@TempDir Path dir) throws Exception {
    Path elsewhere = Files.writeString(dir.resolve("server-file"), NODE_DIED);
    Path link = Files.createSymbolicLink(dir.resolve("stderr.txt"), elsewhere);
    JobOutcome failed = new JobOutcome("j", 1, false, false, T, T, 0, null, null);
    assertSame(failed, LostHosts.named(failed, link));
    Path fifo = dir.resolve("fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", "--", fifo.toString()).start().waitFor());
    assertSame(failed, LostHosts.named(failed, fifo), "returns at once, nothing read");
  }
}
