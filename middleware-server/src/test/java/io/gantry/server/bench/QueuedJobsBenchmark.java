package io.gantry.server.bench;

import io.gantry.server.api.JobList;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Submit, list and status with 10,000 jobs queued, beside the same calls with 10 queued in the same
 * run, and the server's heap after a full collection at each size (issue 32, "Exhaustion"); then
 * the same with 1,000 held jobs ({@code gx:Hold}) beside 10 held, which wait at the dependency and
 * hold gate instead of the compute queue.
 *
 * <p>One compute slot, held by a job that sleeps: every job submitted after it waits (QUEUED, or
 * STAGED once its empty stage-in ran ahead), so the queue only grows. The queue is filled by 8
 * clients; each size is then measured with one client, calls one after another: {@code submitJob}
 * (adding to the queue), {@code getJobStatus} of queued jobs spread over the queue, and {@code
 * listJobs} of the first page (50) of waiting jobs and of the last page. The heap is read with
 * {@code jcmd PID GC.heap_info} after {@code jcmd PID GC.run}.
 */
public final class QueuedJobsBenchmark {
  private static final int CALLS = 100;

  /** A waiting job is QUEUED, or STAGED once its (empty) stage-in ran ahead of the queue. */
  private static final List<JobStateName> WAITING =
      List.of(JobStateName.QUEUED, JobStateName.STAGING_IN, JobStateName.STAGED);

  private static final int PAGE = 50;

  /** Clients filling the queue: many, so that the job store's group commit shares its syncs. */
  private static final int FILL_CLIENTS = 32;

  private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

  public static void main(String[] args) throws Exception {
    int queuedJobs = Integer.getInteger("bench.queued-jobs", 10_000);
    int heldJobs = Integer.getInteger("bench.held-jobs", 1_000);
    Path tmp = Files.createTempDirectory("gantry-bench-queued");
    try {
      print("machine.cores", Runtime.getRuntime().availableProcessors());
      print("machine.load_average_before", loadAverage());
      try (GantryTestServer server =
          GantryTestServer.builder(tmp.resolve("server"))
              .jvmOptions(List.of("-Xmx1g"))
              .slots(1)
              .setting("limits.queued-jobs-per-user", "1000000")
              .setting("limits.concurrent-requests-per-user", Integer.toString(2 * FILL_CLIENTS))
              .start()) {
        JobManagement client = JobManagementClients.of(server);
        String sleeper =
            client.submitJob(
                TestJobs.job("holds-the-slot").posix(3600, "/bin/sleep", "3600").document());
        awaitRunning(client, sleeper);
        if (queuedJobs > 0) {
          phase(
              server,
              client,
              TestJobs.job("queued").posix(60, "/bin/true").xml(),
              "queued_",
              queuedJobs);
        }
        if (heldJobs > 0) {
          phase(
              server,
              client,
              TestJobs.job("held").held().posix(60, "/bin/true").xml(),
              "held_",
              heldJobs);
        }
        client.killJob(sleeper);
      }
      print("machine.load_average_after", loadAverage());
    } finally {
      deleteTree(tmp);
    }
    System.exit(0); // CXF's threads are not all daemons
  }

  /**
   * 10 jobs of {@code job}, measured, then a tenth of {@code large}, measured, then {@code large},
   * measured again (each size printed as it is done, so a run cut short still tells the trend).
   */
  private static void phase(
      GantryTestServer server, JobManagement client, String job, String prefix, int large)
      throws Exception {
    List<String> jobs = new ArrayList<>();
    for (int size : new int[] {10, large / 10, large}) {
      long started = System.nanoTime();
      int before = jobs.size();
      fill(server, job, jobs, size);
      if (jobs.size() > before) {
        print(
            prefix + size + ".fill_submits_per_second",
            String.format(
                Locale.ROOT,
                "%.1f",
                (jobs.size() - before) / ((System.nanoTime() - started) / 1e9)));
      }
      measure(server, client, job, jobs, prefix + size + ".");
    }
  }

  private static void awaitRunning(JobManagement client, String jobId) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (client.getJobStatus(jobId).state != JobStateName.RUNNING) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the slot-holding job did not start");
      }
      Thread.sleep(50);
    }
  }

  /**
   * Submits {@code job} from {@link #FILL_CLIENTS} clients until {@code queued} holds {@code size}.
   */
  private static void fill(GantryTestServer server, String job, List<String> queued, int size)
      throws Exception {
    int missing = size - queued.size();
    if (missing <= 0) {
      return;
    }
    ExecutorService clients = Executors.newFixedThreadPool(FILL_CLIENTS);
    try {
      List<Future<List<String>>> parts = new ArrayList<>();
      for (int c = 0; c < FILL_CLIENTS; c++) {
        int count = missing / FILL_CLIENTS + (c < missing % FILL_CLIENTS ? 1 : 0);
        parts.add(
            clients.submit(
                () -> {
                  JobManagement client = JobManagementClients.of(server);
                  List<String> ids = new ArrayList<>();
                  for (int i = 0; i < count; i++) {
                    ids.add(client.submitJob(TestJobs.documentOf(job)));
                  }
                  return ids;
                }));
      }
      for (Future<List<String>> part : parts) {
        queued.addAll(part.get());
      }
    } finally {
      clients.shutdownNow();
    }
  }

  private static void measure(
      GantryTestServer server, JobManagement client, String job, List<String> queued, String prefix)
      throws Exception {
    print(prefix + "jobs_queued", queued.size());
    print(prefix + "server_heap_used_mib", heapUsedMib(server.pid()));
    long[] submit = new long[CALLS];
    for (int i = 0; i < CALLS; i++) {
      long t0 = System.nanoTime();
      String id = client.submitJob(TestJobs.documentOf(job));
      submit[i] = System.nanoTime() - t0;
      queued.add(id);
    }
    printLatency(prefix + "submit.", submit);
    long[] status = new long[CALLS];
    for (int i = 0; i < CALLS; i++) {
      String id = queued.get((int) ((long) i * (queued.size() - 1) / (CALLS - 1)));
      long t0 = System.nanoTime();
      JobStateName state = client.getJobStatus(id).state;
      status[i] = System.nanoTime() - t0;
      if (!WAITING.contains(state)) {
        throw new IllegalStateException(id + " is " + state + ", not waiting");
      }
    }
    printLatency(prefix + "status.", status);
    printLatency(prefix + "list_first_page.", list(client, 0));
    JobList all = client.listJobs(WAITING, 0, 1, false);
    print(prefix + "list.total", all.total);
    printLatency(prefix + "list_last_page.", list(client, (int) Math.max(0, all.total - PAGE)));
  }

  private static long[] list(JobManagement client, int offset) throws Exception {
    long[] took = new long[CALLS];
    for (int i = 0; i < CALLS; i++) {
      long t0 = System.nanoTime();
      JobList page = client.listJobs(WAITING, offset, PAGE, false);
      took[i] = System.nanoTime() - t0;
      if (page.jobs.isEmpty()) {
        throw new IllegalStateException("an empty page at offset " + offset);
      }
    }
    return took;
  }

  /** The server's heap in use after a full collection, from {@code jcmd}. */
  private static long heapUsedMib(long pid) throws Exception {
    jcmd(pid, "GC.run");
    String info = jcmd(pid, "GC.heap_info");
    Matcher used = HEAP_USED.matcher(info);
    if (!used.find()) {
      throw new IllegalStateException("no heap figure in: " + info);
    }
    return Long.parseLong(used.group(1)) / 1024;
  }

  private static String jcmd(long pid, String command) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("jcmd " + command + " failed: " + out);
    }
    return out;
  }

  private static void printLatency(String prefix, long[] nanos) {
    LatencySummary s = LatencySummary.of(nanos);
    print(prefix + "p50_ms", String.format(Locale.ROOT, "%.1f", s.p50Millis()));
    print(prefix + "p99_ms", String.format(Locale.ROOT, "%.1f", s.p99Millis()));
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
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
