package io.gantry.server.bench;

import io.gantry.testing.server.GantryTestServer;
import io.gantry.server.soap.JobManagementClients;

import io.gantry.server.soap.TestJobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * gantry-server's benchmark (issue 5): durable submissions per second and their latency with
 * 1, 8 and 32 concurrent SOAP clients, and the middleware's overhead for a trivial mpirun job.
 * Everything runs on loopback against real servers in temporary data directories; output is
 * {@code name: value} lines. Goals: >= 1000 submits/s with p99 <= 50 ms at 32 clients;
 * overhead <= 200 ms.
 */
public final class ServerBenchmark {
  private static final int[] CLIENTS = {1, 8, 32};
  // the server measured as deployed: full JIT and heap, not the fast-start options of test servers
  private static final java.util.List<String> SERVER_JVM = java.util.List.of("-Xmx1g");

  public static void main(String[] args) throws Exception {
    Duration warmUp = Duration.ofSeconds(Long.parseLong(System.getProperty("bench.warmup-seconds", "3")));
    Duration measure = Duration.ofSeconds(Long.parseLong(System.getProperty("bench.measure-seconds", "8")));
    int overheadRuns = Integer.getInteger("bench.overhead-runs", 9);
    Path tmp = Files.createTempDirectory("gantry-bench");
    try {
      print("machine.cores", Runtime.getRuntime().availableProcessors());
      print("machine.cpu", cpuModel());
      print("java.version", System.getProperty("java.version"));
      submitThroughput(tmp.resolve("throughput"), warmUp, measure);
      trivialJobOverhead(tmp.resolve("overhead"), overheadRuns);
    } finally {
      deleteTree(tmp);
    }
    System.exit(0); // CXF and HTTP client threads are not all daemons
  }

  /**
   * Jobs that do nothing (/bin/true), on one compute slot: they queue behind each other, so
   * what is measured is accepting jobs durably, not running them.
   */
  private static void submitThroughput(Path dir, Duration warmUp, Duration measure) throws Exception {
    try (GantryTestServer server = GantryTestServer.builder(dir.resolve("throughput")).jvmOptions(SERVER_JVM).settings(Map.of("slots.total", "1",
        "limits.queued-jobs-per-user", "1000000")).start()) {
      SubmitThroughput bench = new SubmitThroughput(server.url(),
          TestJobs.job("nothing").posix(60, "/bin/true").xml());
      for (int clients : CLIENTS) {
        SubmitThroughput.Result r = bench.run(clients, warmUp, measure);
        String prefix = "submit.clients_" + clients + ".";
        print(prefix + "per_second", String.format(Locale.ROOT, "%.0f", r.perSecond()));
        print(prefix + "p50_ms", String.format(Locale.ROOT, "%.1f", r.latency().p50Millis()));
        print(prefix + "p99_ms", String.format(Locale.ROOT, "%.1f", r.latency().p99Millis()));
        print(prefix + "errors", r.errors());
      }
    }
  }

  private static void trivialJobOverhead(Path dir, int runs) throws Exception {
    Files.createDirectories(dir.resolve("direct"));
    try (GantryTestServer server = GantryTestServer.builder(dir.resolve("trivial")).jvmOptions(SERVER_JVM).settings(Map.of("slots.total", "1")).start()) {
      TrivialJobOverhead.Result r = new TrivialJobOverhead(JobManagementClients.of(server), dir.resolve("direct")).run(runs);
      print("trivial_job.runs", runs);
      print("trivial_job.mpirun_direct_ms", String.format(Locale.ROOT, "%.1f", r.mpirunMillis()));
      print("trivial_job.submit_to_succeeded_ms", String.format(Locale.ROOT, "%.1f", r.submitToSucceededMillis()));
      print("trivial_job.server_recorded_ms", String.format(Locale.ROOT, "%.1f", r.serverRecordedMillis()));
      print("trivial_job.overhead_ms", String.format(Locale.ROOT, "%.1f", r.overheadMillis()));
    }
  }

  private static String cpuModel() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines.filter(l -> l.startsWith("model name")).findFirst()
          .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static void print(String name, Object value) {
    System.out.println(name + ": " + value);
    System.out.flush();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
