package io.gantry.dispatcher;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How the local launchers confine a job: every program a job runs starts inside bubblewrap, and
 * {@code setpriv} inside the sandbox switches to the job's account, with no capabilities and
 * no_new_privs, before it executes the job's program (see {@code internal/JobSandbox}).
 *
 * @param bwrap the bubblewrap program (absolute path)
 * @param setpriv util-linux's setpriv (absolute path, under a directory the sandbox shows, /usr)
 * @param executableRoots directories whose programs jobs may run besides the system's (/usr): bound
 *     read-only at the same path inside the sandbox and put on the job's PATH, in this order
 */
public record SandboxConfig(Path bwrap, Path setpriv, List<Path> executableRoots) {

  public SandboxConfig {
    requireAbsolute("bwrap", bwrap);
    requireAbsolute("setpriv", setpriv);
    executableRoots = List.copyOf(executableRoots);
    for (Path root : executableRoots) {
      requireAbsolute("executable root", root);
      if (root.normalize().getNameCount() == 0) {
        throw new IllegalArgumentException(
            "an executable root cannot be / (it would show the whole host to jobs)");
      }
    }
    executableRoots = executableRoots.stream().map(Path::normalize).toList();
  }

  /** Debian's /usr/bin/bwrap and /usr/bin/setpriv, no executable roots beyond the system's. */
  public static SandboxConfig defaults() {
    return new SandboxConfig(Path.of("/usr/bin/bwrap"), Path.of("/usr/bin/setpriv"), List.of());
  }

  /**
   * Why a job's sandbox would not show {@code executable}, or empty: an absolute path must lie
   * under /usr (or /bin, /sbin, /lib*), the job directory as {@code /job}, or an executable root.
   * Relative paths and bare names are looked up when the job starts.
   */
  public java.util.Optional<String> executableProblem(String executable) {
    if (executable == null || !executable.startsWith("/")) {
      return java.util.Optional.empty();
    }
    Path path = Path.of(executable).normalize();
    boolean visible =
        java.util.stream.Stream.of("/usr", "/bin", "/sbin", "/lib", "/lib64", "/job")
                .anyMatch(path::startsWith)
            || executableRoots.stream().anyMatch(path::startsWith);
    return visible
        ? java.util.Optional.empty()
        : java.util.Optional.of(
            "executable "
                + executable
                + " is outside what a job's sandbox shows: /usr, the job directory (as /job) and the allowed"
                + " executable roots "
                + executableRoots
                + " (setting jobs.allowed-executable-roots)");
  }

  public SandboxConfig withExecutableRoots(List<Path> roots) {
    return new SandboxConfig(bwrap, setpriv, roots);
  }

  private static void requireAbsolute(String what, Path path) {
    Objects.requireNonNull(path, what);
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException(what + " must be an absolute path, was " + path);
    }
  }
}
