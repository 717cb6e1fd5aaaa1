package io.gantry.dispatcher.bench;

import io.gantry.dispatcher.farm.FarmDispatcher;
import io.gantry.dispatcher.farm.FarmJournal;
import io.gantry.dispatcher.farm.FarmOptions;
import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskPriority;
import io.gantry.dispatcher.farm.TaskResult;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Exec mode against xargs: N {@code /bin/true} tasks through a farm (dispatcher here, 2
 * gantry-launcher processes, loopback TCP, the journal on disk) and {@code xargs -P 2 -n 1
 * /bin/true} over the same N lines, in the same run, on the same machine. Prints {@code name:
 * value} lines. Arguments: the launcher, the task count (default 10000), a scratch directory.
 */
public final class ExecModeBenchmark {
  private ExecModeBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path launcher = Path.of(args[0]);
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    Path dir = Files.createTempDirectory(Path.of(args.length > 2 ? args[2] : "/tmp"), "exec-bench");
    // warm-up of both (JIT, page cache), not measured
    farm(launcher, 500, dir.resolve("warm.journal"));
    xargs(500);
    double farmSeconds = farm(launcher, n, dir.resolve("bench.journal"));
    double xargsSeconds = xargs(n);
    print("exec_tasks", Integer.toString(n));
    print("exec_farm_seconds", String.format(Locale.ROOT, "%.3f", farmSeconds));
    print("exec_farm_tasks_per_s", String.format(Locale.ROOT, "%.0f", n / farmSeconds));
    print("exec_xargs_seconds", String.format(Locale.ROOT, "%.3f", xargsSeconds));
    print("exec_xargs_tasks_per_s", String.format(Locale.ROOT, "%.0f", n / xargsSeconds));
    print(
        "exec_farm_vs_xargs_throughput",
        String.format(Locale.ROOT, "%.2f (goal >= 0.80)", xargsSeconds / farmSeconds));
  }

  private static double farm(Path launcher, int n, Path journal) throws Exception {
    List<FarmTask> tasks = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      tasks.add(new FarmTask(i, TaskPriority.NORMAL, "/bin/true", List.of(), Map.of(), List.of()));
    }
    String secret = FarmDispatcher.newSecret();
    long t0 = System.nanoTime();
    List<Process> launchers = new ArrayList<>();
    try (FarmDispatcher d =
        FarmDispatcher.start(
            "bench",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            secret,
            tasks,
            2,
            FarmOptions.defaults(),
            FarmJournal.open(journal))) {
      for (int i = 0; i < 2; i++) {
        ProcessBuilder pb = new ProcessBuilder(launcher.toString());
        pb.environment().put("GANTRY_FARM_DISPATCHER", "127.0.0.1:" + d.address().getPort());
        pb.environment().put("GANTRY_FARM_SECRET", secret);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true);
        launchers.add(pb.start());
      }
      Map<Long, TaskResult> results = d.finished().get(30, TimeUnit.MINUTES);
      long bad = results.values().stream().filter(r -> !r.succeeded()).count();
      if (results.size() != n || bad != 0) {
        throw new IllegalStateException(results.size() + " results, " + bad + " not succeeded");
      }
      for (Process p : launchers) {
        p.waitFor(1, TimeUnit.MINUTES);
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private static double xargs(int n) throws Exception {
    StringBuilder lines = new StringBuilder(n * 2);
    for (int i = 0; i < n; i++) {
      lines.append("x\n");
    }
    long t0 = System.nanoTime();
    // `-n 1 /bin/true x`: one /bin/true per line, two at a time, as the baseline
    Process p =
        new ProcessBuilder("xargs", "-P", "2", "-n", "1", "/bin/true")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (var in = p.getOutputStream()) {
      in.write(lines.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("xargs failed");
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void print(String name, String value) {
    System.out.println(name + ": " + value);
  }
}
