package io.gantry.testing.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the programs and the repository a {@link NamespaceCluster} needs, and says clearly what is
 * missing.
 */
final class Tools {
  private static final List<String> SYSTEM_DIRS =
      List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin");

  private Tools() {}

  static Optional<Path> find(String program) {
    List<String> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.addAll(List.of(path.split(":")));
    }
    dirs.addAll(SYSTEM_DIRS);
    return dirs.stream()
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, program))
        .filter(Files::isExecutable)
        .findFirst();
  }

  static void requireRootAndTools(boolean slurm, boolean sshd) {
    if (!isRoot()) {
      throw new IllegalStateException(
          "a NamespaceCluster needs root (network namespaces, munged as user munge, "
              + "sshd); run the tests as root, as CI does");
    }
    List<String> needed =
        new ArrayList<>(List.of("ip", "nsenter", "unshare", "setsid", "bash", "mpirun"));
    if (slurm) {
      needed.addAll(
          List.of(
              "munged",
              "setpriv",
              "slurmctld",
              "slurmd",
              "sbatch",
              "srun",
              "scontrol",
              "sinfo",
              "squeue",
              "scancel",
              "sacct"));
    }
    if (sshd) {
      needed.addAll(List.of("sshd", "ssh", "ssh-keygen"));
    }
    List<String> missing = needed.stream().filter(p -> find(p).isEmpty()).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "a NamespaceCluster needs "
              + missing
              + " (Debian packages iproute2, util-linux, slurm-wlm, munge, openssh-server, openmpi-bin); "
              + "run scripts/install-deps");
    }
  }

  private static boolean isRoot() {
    try {
      // /proc/self belongs to the effective user of this process.
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** The nearest folder, from the working directory up, that holds docker/entrypoints. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("docker/entrypoints/slurmd.sh"))) {
        return p;
      }
    }
    throw new IllegalStateException(
        "no docker/entrypoints/slurmd.sh in "
            + dir
            + " or above: "
            + "run the tests inside the Gantry repository, or pass NamespaceCluster.builder().repository(root)");
  }
}
