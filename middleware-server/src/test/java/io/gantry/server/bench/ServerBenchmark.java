package io.gantry.server.bench;

import io.gantry.server.internal.security.PasswordHasher;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.soap.FingerprintTrustManager;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * gantry-server's benchmark: durable submissions per second and their latency with 1, 8 and 32
 * concurrent SOAP clients, each beside a baseline measured in the same run (getServerInfo, the
 * cheapest operation a client can call: what every call costs before the operation's own work), so
 * that the cost of a submission reads as a ratio; and the middleware's overhead for a trivial
 * mpirun job. Two set-ups:
 *
 * <ol>
 *   <li>{@code secure}: as deployed, TLS and authentication on (HTTP Basic), 8 users, the clients
 *       spread over them (32 clients: 4 per user, within limits.concurrent-requests-per-user's
 *       default of 16);
 *   <li>{@code plain}: plain HTTP, authentication off; every client is then the single user {@code
 *       local}, so the per-user request limit is raised to the client count.
 * </ol>
 *
 * Everything runs on loopback against real servers in temporary data directories; output is {@code
 * name: value} lines. Goals (issue 31): >= 1000 submits/s with p99 <= 50 ms at 32 clients (on a
 * loaded machine, submit throughput >= 0.5 times getServerInfo's); overhead <= 50 ms with the
 * sandbox and the supervisor.
 */
public final class ServerBenchmark {
  private static final int[] CLIENTS = {1, 8, 32};
  private static final int USERS = 8;
  // the server measured as deployed: full JIT and heap, not the fast-start options of test servers
  private static final List<String> SERVER_JVM = serverJvm();

  /**
   * Trivial jobs each overhead server runs before the measured ones ({@link TrivialJobOverhead}).
   */
  private static final int WARM_UP_JOBS = Integer.getInteger("bench.overhead-warmup-jobs", 100);

  private static final String SUBMIT_SUCCESS = "jobId>";
  private static final String INFO_SUCCESS = "version>";

  public static void main(String[] args) throws Exception {
    Duration warmUp =
        Duration.ofSeconds(Long.parseLong(System.getProperty("bench.warmup-seconds", "2")));
    Duration measure =
        Duration.ofSeconds(Long.parseLong(System.getProperty("bench.measure-seconds", "6")));
    int overheadRuns = Integer.getInteger("bench.overhead-runs", 9);
    List<String> parts =
        List.of(System.getProperty("bench.parts", "secure,plain,overhead").split(","));
    Path tmp = Files.createTempDirectory("gantry-bench");
    try {
      print("machine.cores", Runtime.getRuntime().availableProcessors());
      print("machine.cpu", cpuModel());
      print("machine.load_average_before", loadAverage());
      print("java.version", System.getProperty("java.version"));
      print("bench.warmup_seconds", warmUp.toSeconds());
      print("bench.measure_seconds", measure.toSeconds());
      print("bench.server_jvm", String.join(" ", SERVER_JVM));
      if (parts.contains("secure")) {
        secure(tmp.resolve("secure"), warmUp, measure);
      }
      if (parts.contains("plain")) {
        plain(tmp.resolve("plain"), warmUp, measure);
      }
      if (parts.contains("overhead")) {
        trivialJobOverhead(tmp.resolve("overhead"), overheadRuns);
      }
      print("machine.load_average_after", loadAverage());
    } finally {
      deleteTree(tmp);
    }
    System.exit(0); // CXF and HTTP client threads are not all daemons
  }

  /**
   * TLS (the generated certificate, trusted by its fingerprint) and 8 users logging in with HTTP
   * Basic.
   */
  private static void secure(Path dir, Duration warmUp, Duration measure) throws Exception {
    List<ClosedLoopLoad.Login> users = new ArrayList<>();
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir)
            .jvmOptions(SERVER_JVM)
            .secure()
            .settings(throughputSettings());
    for (int i = 1; i <= USERS; i++) {
      users.add(new ClosedLoopLoad.Login("bench" + i, "bench-password-" + i));
      builder.account(new TestAccount("bench" + i, "bench-password-" + i, false, null));
    }
    try (GantryTestServer server = builder.start()) {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(
          null,
          new TrustManager[] {new FingerprintTrustManager(server.fingerprint().orElseThrow())},
          null);
      print("secure.tls", true);
      print("secure.auth", "http-basic");
      print("secure.users", USERS);
      print("secure.limits.concurrent_requests_per_user", 16);
      print("secure.password_check_ms", String.format(Locale.ROOT, "%.1f", passwordCheckMillis()));
      measureSetup("secure", server.url(), tls, users, warmUp, measure);
    }
  }

  /**
   * One password check as the server makes it for a login it has not verified within the last
   * minute (PBKDF2, {@value PasswordHasher#ITERATIONS} iterations), median of 5 on this machine
   * now.
   */
  private static double passwordCheckMillis() {
    PasswordHasher hasher = new PasswordHasher();
    String stored = hasher.hash("bench-password-1".toCharArray());
    long[] took = new long[5];
    for (int i = 0; i < took.length; i++) {
      long t0 = System.nanoTime();
      hasher.verify("bench-password-1".toCharArray(), stored);
      took[i] = System.nanoTime() - t0;
    }
    return LatencySummary.median(took);
  }

  /** Plain HTTP, no accounts: every client is the user local. */
  private static void plain(Path dir, Duration warmUp, Duration measure) throws Exception {
    int limit = CLIENTS[CLIENTS.length - 1] * 2;
    Map<String, String> settings = new HashMap<>(throughputSettings());
    settings.put("limits.concurrent-requests-per-user", Integer.toString(limit));
    try (GantryTestServer server =
        GantryTestServer.builder(dir).jvmOptions(SERVER_JVM).settings(settings).start()) {
      print("plain.tls", false);
      print("plain.auth", "off");
      print("plain.users", 1);
      print("plain.limits.concurrent_requests_per_user", limit);
      measureSetup("plain", server.url(), null, List.of(), warmUp, measure);
    }
  }

  /**
   * Jobs that do nothing (/bin/true), on one compute slot: they queue behind each other, so what is
   * measured is accepting jobs durably, not running them.
   */
  private static Map<String, String> throughputSettings() {
    return Map.of("slots.total", "1", "limits.queued-jobs-per-user", "1000000");
  }

  /** At each client count, the baseline and then submitJob, so both see the same machine. */
  private static void measureSetup(
      String name,
      String url,
      SSLContext tls,
      List<ClosedLoopLoad.Login> users,
      Duration warmUp,
      Duration measure)
      throws Exception {
    ClosedLoopLoad info = new ClosedLoopLoad(url, tls, users, "<g:getServerInfo/>", INFO_SUCCESS);
    ClosedLoopLoad submit =
        new ClosedLoopLoad(
            url,
            tls,
            users,
            "<g:submitJob><g:jobDefinition>"
                + TestJobs.job("nothing").posix(60, "/bin/true").xml()
                + "</g:jobDefinition></g:submitJob>",
            SUBMIT_SUCCESS);
    long errors = 0;
    for (int clients : CLIENTS) {
      String prefix = name + ".clients_" + clients + ".";
      ClosedLoopLoad.Result baseline = info.run(clients, warmUp, measure);
      printResult(prefix + "server_info.", baseline);
      ClosedLoopLoad.Result submits = submit.run(clients, warmUp, measure);
      printResult(prefix + "submit.", submits);
      print(
          prefix + "submit_vs_server_info.p50_ratio",
          String.format(
              Locale.ROOT, "%.2f", submits.latency().p50Millis() / baseline.latency().p50Millis()));
      print(
          prefix + "submit_vs_server_info.throughput_ratio",
          String.format(Locale.ROOT, "%.2f", submits.perSecond() / baseline.perSecond()));
      errors += baseline.errors() + submits.errors();
    }
    print(name + ".errors_total", errors);
  }

  private static void printResult(String prefix, ClosedLoopLoad.Result r) {
    print(prefix + "per_second", String.format(Locale.ROOT, "%.1f", r.perSecond()));
    print(prefix + "p50_ms", String.format(Locale.ROOT, "%.1f", r.latency().p50Millis()));
    print(prefix + "p99_ms", String.format(Locale.ROOT, "%.1f", r.latency().p99Millis()));
    print(prefix + "errors", r.errors());
    if (r.errors() > 0) {
      print(prefix + "first_error", r.firstError());
    }
  }

  /**
   * The trivial job twice: sandboxed (bubblewrap under the job's OS account), then also under the
   * supervisor gantry-stepd ({@code jobs.supervisor}, {@code bench.supervisor}, by default this
   * checkout's node-programs/build/gantry-stepd), as deployed when jobs must outlive the server.
   */
  private static void trivialJobOverhead(Path dir, int runs) throws Exception {
    trivialJobOverhead(dir.resolve("sandbox"), runs, "trivial_job.", Map.of());
    Path stepd =
        Path.of(System.getProperty("bench.supervisor", "node-programs/build/gantry-stepd"))
            .toAbsolutePath();
    if (!Files.isExecutable(stepd)) {
      print("trivial_job_supervised.skipped", stepd + " is not built");
      return;
    }
    trivialJobOverhead(
        dir.resolve("supervised"),
        runs,
        "trivial_job_supervised.",
        Map.of("jobs.supervisor", stepd.toString()));
  }

  private static void trivialJobOverhead(
      Path dir, int runs, String prefix, Map<String, String> settings) throws Exception {
    Files.createDirectories(dir.resolve("direct"));
    try (GantryTestServer server =
        GantryTestServer.builder(dir.resolve("server"))
            .jvmOptions(SERVER_JVM)
            .slots(1)
            .settings(settings)
            .start()) {
      TrivialJobOverhead.Result r =
          new TrivialJobOverhead(
                  JobManagementClients.of(server), dir.resolve("direct"), WARM_UP_JOBS)
              .run(runs);
      print(prefix + "runs", runs);
      print(prefix + "warm_up_jobs", WARM_UP_JOBS);
      print(prefix + "supervisor", settings.getOrDefault("jobs.supervisor", "none"));
      print(prefix + "mpirun_direct_ms", millis(r.mpirunMillis()));
      print(prefix + "submit_to_succeeded_ms", millis(r.submitToSucceededMillis()));
      print(prefix + "server_recorded_ms", millis(r.serverRecordedMillis()));
      print(prefix + "server_submitted_to_started_ms", millis(r.submittedToStartedMillis()));
      print(prefix + "server_started_to_finished_ms", millis(r.startedToFinishedMillis()));
      print(prefix + "submit_call_ms", millis(r.submitCallMillis()));
      print(prefix + "sent_to_submitted_ms", millis(r.callToSubmittedMillis()));
      print(prefix + "finished_to_seen_ms", millis(r.finishedToSeenMillis()));
      print(prefix + "overhead_ms", millis(r.overheadMillis()));
      // the job's timeline (audit trail, medians): the time before each entry was stored
      r.stepMillis().forEach((step, ms) -> print(prefix + "step." + step + "_ms", millis(ms)));
      if (System.getenv("BENCH_DUMP_LOG") != null) {
        System.err.println(server.log());
      }
    }
  }

  private static String millis(double ms) {
    return String.format(Locale.ROOT, "%.1f", ms);
  }

  /**
   * The server's JVM: full JIT and heap, plus {@code bench.server-jvm-options} (space-separated),
   * e.g. {@code -XX:StartFlightRecording=filename=/tmp/server.jfr} to profile the server under the
   * benchmark's load.
   */
  private static List<String> serverJvm() {
    List<String> options = new ArrayList<>(List.of("-Xmx1g"));
    String extra = System.getProperty("bench.server-jvm-options", "").strip();
    if (!extra.isEmpty()) {
      options.addAll(List.of(extra.split("\\s+")));
    }
    return List.copyOf(options);
  }

  /** The 1, 5 and 15 minute load averages: other work on the machine skews every figure. */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String cpuModel() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .findFirst()
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .orElse("unknown");
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
