package io.gantry.server.internal.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A job's processes as the machine sees them (the test runs as root in the first PID namespace): a
 * sandboxed rank knows only its pid inside its own namespace, so the attacks are aimed at the pids
 * another user would find with {@code ps} on the node.
 */
final class JobProcesses {
  private JobProcesses() {}

  /**
   * The pids of job {@code jobId}'s {@code /bin/sh -c SCRIPT} programs whose script contains {@code
   * marker}: its ranks, not bubblewrap around them. A shell forks for each command it runs (the
   * scripts' {@code sleep 0.1} loops), and until the child's exec it has its parent's command line
   * and environment: such a child, whose parent is one of the shells found, is not counted.
   */
  static List<String> shells(String jobId, String marker) throws IOException {
    List<String> shells = matchingShells(jobId, marker);
    List<String> programs = new ArrayList<>();
    for (String pid : shells) {
      if (!shells.contains(parentOf(pid))) {
        programs.add(pid);
      }
    }
    return programs;
  }

  /** The parent's pid, from /proc/PID/stat (after the command name, which may hold spaces). */
  private static String parentOf(String pid) {
    try {
      String stat = read(Path.of("/proc", pid, "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return fields[1];
    } catch (IOException | RuntimeException ended) {
      return "";
    }
  }

  private static List<String> matchingShells(String jobId, String marker) throws IOException {
    List<String> pids = new ArrayList<>();
    try (Stream<Path> all = Files.list(Path.of("/proc"))) {
      for (Path p : all.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmd = read(p.resolve("cmdline"));
          String env = "\0" + read(p.resolve("environ"));
          if (cmd.startsWith("/bin/sh\0-c\0")
              && cmd.contains(marker)
              && env.contains("\0GANTRY_JOB_ID=" + jobId + "\0")) {
            pids.add(p.getFileName().toString());
          }
        } catch (IOException e) {
          // ended meanwhile
        }
      }
    }
    return pids;
  }

  /**
   * The pids of job {@code jobId}'s Open MPI processes outside its sandboxes ({@code mpirun} on its
   * first node, {@code orted} on the others): they run as the job's account with its environment.
   */
  static List<String> openMpiDaemons(String jobId) throws IOException {
    List<String> pids = new ArrayList<>();
    try (Stream<Path> all = Files.list(Path.of("/proc"))) {
      for (Path p : all.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmd = read(p.resolve("cmdline"));
          String program = cmd.substring(0, Math.max(0, cmd.indexOf('\0')));
          String name = program.substring(program.lastIndexOf('/') + 1);
          String env = "\0" + read(p.resolve("environ"));
          if ((name.equals("mpirun") || name.equals("orted"))
              && env.contains("\0GANTRY_JOB_ID=" + jobId + "\0")) {
            pids.add(p.getFileName().toString());
          }
        } catch (IOException e) {
          // ended meanwhile
        }
      }
    }
    return pids;
  }

  /** A variable of a process's environment as it started, or null. */
  static String environmentVariable(String pid, String name) throws IOException {
    String env = "\0" + read(Path.of("/proc", pid, "environ"));
    int at = env.indexOf("\0" + name + "=");
    if (at < 0) {
      return null;
    }
    int start = at + name.length() + 2;
    int end = env.indexOf('\0', start);
    return env.substring(start, end < 0 ? env.length() : end);
  }

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
  }
}
