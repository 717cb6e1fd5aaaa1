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
   * marker}: its ranks, not bubblewrap around them.
   */
  static List<String> shells(String jobId, String marker) throws IOException {
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

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
  }
}
