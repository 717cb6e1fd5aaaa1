package io.gantry.testing.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Removes what a test JVM killed with SIGKILL left behind: its clusters' namespaces, daemons and
 * folders. A cluster's folder under /run names its owner (PID and start time); a cluster whose
 * owner no longer runs is stale, while clusters of live test JVMs (other builds on the same
 * machine) are left alone.
 */
final class StaleClusters {
  static final Path RUN = Path.of("/run");
  static final String PREFIX = "gantry-cluster-";
  private static final String OWNER_FILE = "owner";

  /** A cluster folder is claimed right after it is made; one unclaimed this long never will be. */
  private static final Duration UNCLAIMED_GRACE = Duration.ofMinutes(2);

  private StaleClusters() {}

  /** Records this JVM as the owner of the cluster in {@code folder}. */
  static void claim(Path folder) throws IOException {
    ProcessHandle self = ProcessHandle.current();
    long started = self.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    // written aside and moved into place: another JVM sweeping /run never reads it half-written
    Path aside = folder.resolve(OWNER_FILE + ".new");
    Files.writeString(aside, self.pid() + " " + started + "\n", StandardCharsets.UTF_8);
    Files.move(aside, folder.resolve(OWNER_FILE), StandardCopyOption.ATOMIC_MOVE);
  }

  /** Removes every stale cluster under /run; returns the run ids removed. */
  static List<String> removeAll() {
    List<String> removed = new ArrayList<>();
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(RUN, PREFIX + "*")) {
      for (Path folder : folders) {
        String runId = folder.getFileName().toString().substring(PREFIX.length());
        if (runId.matches("[0-9a-f]{6}") && ownerGone(folder)) {
          remove(runId, folder);
          removed.add(runId);
        }
      }
    } catch (IOException e) {
      // nothing readable under /run: nothing to sweep
    }
    return removed;
  }

  private static boolean ownerGone(Path folder) {
    long pid;
    long ownerStarted;
    try {
      String[] owner =
          Files.readString(folder.resolve(OWNER_FILE), StandardCharsets.UTF_8).trim().split(" ");
      pid = Long.parseLong(owner[0]);
      ownerStarted = Long.parseLong(owner[1]);
    } catch (IOException | RuntimeException e) {
      // no owner (yet): a cluster being created right now, unless its JVM died before claiming it
      return olderThan(folder, UNCLAIMED_GRACE);
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    long started =
        process.flatMap(p -> p.info().startInstant()).map(Instant::toEpochMilli).orElse(-1L);
    return process.isEmpty() || started != ownerStarted;
  }

  private static boolean olderThan(Path folder, Duration age) {
    try {
      return Files.getLastModifiedTime(folder).toInstant().isBefore(Instant.now().minus(age));
    } catch (IOException e) {
      return false; // gone meanwhile
    }
  }

  private static void remove(String runId, Path folder) {
    try (DirectoryStream<Path> namespaces =
        Files.newDirectoryStream(Path.of("/run/netns"), "gantry-" + runId + "-*")) {
      for (Path namespace : namespaces) {
        String name = namespace.getFileName().toString();
        Daemon.killAll(ClusterNetwork.processesIn(name), Duration.ofSeconds(5));
        Commands.run(List.of("ip", "netns", "del", name), Duration.ofSeconds(20));
      }
    } catch (IOException e) {
      // no /run/netns: no namespace left
    }
    // munged is the one daemon outside the namespaces.
    Path mungedPid = folder.resolve("munge-state/munged.pid");
    try {
      long pid = Long.parseLong(Files.readString(mungedPid).trim());
      ProcessHandle.of(pid)
          .filter(p -> p.info().command().orElse("").endsWith("munged"))
          .ifPresent(p -> Daemon.killAll(List.of(pid), Duration.ofSeconds(5)));
    } catch (IOException | NumberFormatException e) {
      // munged never started
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("NamespaceCluster: cannot delete stale " + folder + ": " + e);
    }
    System.err.println(
        "NamespaceCluster: removed stale test cluster " + runId + " (its JVM is gone)");
  }
}
