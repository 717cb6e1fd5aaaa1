package io.gantry.server.soak;

import io.gantry.testing.RestartablePostgresServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The faults the soak injects, one at a time, each chosen from the soak's seeded random source. A
 * fault that finds nothing to hit (no gantry-stepd running at that moment) is counted as missed,
 * not injected.
 */
final class Faults {
  enum Kind {
    SERVER_KILLED("server-killed"),
    STEPD_KILLED("stepd-killed"),
    LAUNCHER_KILLED("launcher-killed"),
    JOB_STORE_RESTARTED("job-store-restarted"),
    JOB_STORE_CRASHED("job-store-crashed"),
    DATA_SOURCE_RESTARTED("data-source-restarted"),
    DISK_FILLED("job-disk-filled");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  /** How long the job directories' disk stays full. */
  private static final long DISK_FULL_MILLIS = 4_000;

  private final SoakServer server;
  private final RestartablePostgresServer jobStore;
  private final RestartablePostgresServer dataSource;
  private final Path smallDisk;
  private final String soakRoot;
  private final List<Kind> kinds;
  private final Map<Kind, AtomicLong> injected = new ConcurrentHashMap<>();
  private final Map<Kind, AtomicLong> missed = new ConcurrentHashMap<>();

  Faults(
      SoakServer server,
      RestartablePostgresServer jobStore,
      RestartablePostgresServer dataSource,
      Path smallDisk,
      Path soakRoot,
      List<Kind> kinds) {
    this.server = server;
    this.jobStore = jobStore;
    this.dataSource = dataSource;
    this.smallDisk = smallDisk;
    // with its separator: a soak in /tmp/soak must not take /tmp/soak-2's processes for its own
    this.soakRoot = soakRoot + "/";
    this.kinds = List.copyOf(kinds);
    for (Kind k : Kind.values()) {
      injected.put(k, new AtomicLong());
      missed.put(k, new AtomicLong());
    }
  }

  /** Injects one fault of a kind chosen by {@code random}; returns a line saying what it did. */
  String injectOne(Random random) throws Exception {
    Kind kind = kinds.get(random.nextInt(kinds.size()));
    boolean hit =
        switch (kind) {
          case SERVER_KILLED -> {
            server.killAndRestart();
            yield true;
          }
          case STEPD_KILLED -> killOne("gantry-stepd", random);
          case LAUNCHER_KILLED -> killOne("gantry-launcher", random);
          case JOB_STORE_RESTARTED -> {
            jobStore.restart();
            yield true;
          }
          case JOB_STORE_CRASHED -> {
            jobStore.crashAndRestart();
            yield true;
          }
          case DATA_SOURCE_RESTARTED -> {
            dataSource.restart();
            yield true;
          }
          case DISK_FILLED -> {
            fillDiskFor(DISK_FULL_MILLIS);
            yield true;
          }
        };
    (hit ? injected : missed).get(kind).incrementAndGet();
    return kind.label + (hit ? "" : " (nothing to hit)");
  }

  long injected(Kind kind) {
    return injected.get(kind).get();
  }

  long missed(Kind kind) {
    return missed.get(kind).get();
  }

  List<Kind> kinds() {
    return kinds;
  }

  /**
   * kill -9 of one running process whose executable is named {@code name}, chosen at random among
   * them (ordered by PID, so a seed chooses the same one of the same set).
   */
  private boolean killOne(String name, Random random) {
    List<ProcessHandle> found = new ArrayList<>();
    ProcessHandle.allProcesses()
        .filter(p -> p.info().command().map(c -> c.endsWith("/" + name)).orElse(false))
        .filter(this::ours)
        .sorted(Comparator.comparingLong(ProcessHandle::pid))
        .forEach(found::add);
    if (found.isEmpty()) {
      return false;
    }
    return found.get(random.nextInt(found.size())).destroyForcibly();
  }

  /**
   * Whether the process or one of its ancestors names the soak's directory in its command line:
   * other programs of the same name on this machine are not the soak's to kill.
   */
  private boolean ours(ProcessHandle process) {
    for (ProcessHandle p = process; p != null; p = p.parent().orElse(null)) {
      if (p.info().arguments().map(a -> String.join(" ", a).contains(soakRoot)).orElse(false)) {
        return true;
      }
    }
    return false;
  }

  /** Fills the small file system under the job directories to its last byte, then frees it. */
  private void fillDiskFor(long millis) throws IOException, InterruptedException {
    Path filler = smallDisk.resolve("soak-filler");
    byte[] block = new byte[1 << 16];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException full) {
      // no space left: that is the fault
    }
    try {
      Thread.sleep(millis);
    } finally {
      Files.deleteIfExists(filler);
    }
  }
}
