package io.gantry.server.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A server JVM's threads and open file descriptors (from {@code /proc}) and its heap in use after a
 * full collection ({@code jcmd GC.run}, then {@code GC.heap_info}: the live heap, not garbage).
 */
record ServerVitals(long threads, long fileDescriptors, long heapKiB) {
  // "def new generation total 78656K, used 1234K", "garbage-first heap total 262144K, used ...":
  // the heap's spaces; Metaspace's lines have no "total"
  private static final Pattern HEAP_SPACE = Pattern.compile("total \\d+K, used (\\d+)K");

  static ServerVitals of(long pid) throws IOException, InterruptedException {
    jcmd(pid, "GC.run");
    String heapInfo = jcmd(pid, "GC.heap_info");
    long heap = 0;
    Matcher m = HEAP_SPACE.matcher(heapInfo);
    while (m.find()) {
      heap += Long.parseLong(m.group(1));
    }
    if (heap == 0) {
      throw new IOException("no heap figure in jcmd's answer: " + heapInfo);
    }
    long threads;
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      threads = tasks.count();
    }
    long fds;
    try (Stream<Path> open = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      fds = open.count();
    }
    return new ServerVitals(threads, fds, heap);
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
            .redirectErrorStream(true)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(
          "jcmd " + command + " failed: " + new String(out, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8);
  }
}
