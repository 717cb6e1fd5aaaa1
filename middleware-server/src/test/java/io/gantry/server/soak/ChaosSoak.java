package io.gantry.server.soak;

import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.MissedRunsName;
import io.gantry.server.api.ScheduleInfo;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.RestartablePostgresServer;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The chaos soak ({@code tests/soak/run}, docs/reliability.md "A chaos soak"): eight users submit
 * valuations (SQL in, SQL out), task farms and scheduled jobs to one gantry-server, each waiting
 * for its job before the next, while faults chosen by a seeded random source hit the server, its
 * supervisors and launchers, its job store, the users' database and the job directories' disk. Then
 * it lets every job end and checks what Gantry promises: no acknowledged job lost, no program run
 * twice, every stage-out row there once, and the server's threads, descriptors and heap bounded.
 * Prints {@code name: value} lines; exits 1 on any violation.
 */
public final class ChaosSoak {
  static final int USERS = 8;

  /** The user who submits through the command-line client, when one is built. */
  static final String CLI_USER = "user-8";

  static final int POSITIONS = 25;
  static final Duration JOB_WAIT = Duration.ofSeconds(90);

  /** listJobs answers at most this many jobs a call. */
  static final int LIST_PAGE = 1000;

  /** The bounds on growth from the first server's start to the last server's end. */
  static final double GROWTH_FACTOR = 1.5;

  static final long THREADS_SLACK = 20;
  static final long FDS_SLACK = 50;
  static final long HEAP_SLACK_KIB = 64 * 1024;

  private final Duration length;
  private final long seed;
  private final Duration faultInterval;
  private final Duration drain;
  private final Path root;
  private final Path cli;
  private final Map<String, String> ownerOf = new ConcurrentHashMap<>();
  private final Map<String, String> kindOf = new ConcurrentHashMap<>();

  /** Each SUCCEEDED sample job's result records, read as soon as its user saw it succeed. */
  private final Map<String, Map<String, Long>> sampleRecords = new ConcurrentHashMap<>();

  private final AtomicLong refused = new AtomicLong();
  private final Map<String, AtomicLong> submittedByKind = new ConcurrentHashMap<>();
  private final List<String> violations = new ArrayList<>();
  private final Map<String, String> report = new LinkedHashMap<>();
  private final SoakSessions sessions = new SoakSessions();
  private SoakSampleVar sample;

  /** The server's job store, read at the end for the history of jobs with rows but no success. */
  private RestartablePostgresServer jobStore;

  private Map<String, JobStatusInfo> finals = Map.of();
  private volatile boolean stopping;

  private ChaosSoak(Duration length, long seed, Duration faultInterval, Duration drain, Path root) {
    this.length = length;
    this.seed = seed;
    this.faultInterval = faultInterval;
    this.drain = drain;
    this.root = root;
    String gantry = System.getProperty("soak.cli", "");
    this.cli = !gantry.isEmpty() && Files.isExecutable(Path.of(gantry)) ? Path.of(gantry) : null;
  }

  public static void main(String[] args) throws Exception {
    long minutes = 5;
    long seed = 1;
    long faultSeconds = 15;
    long drainMinutes = 5;
    Path root = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--minutes" -> minutes = Long.parseLong(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--fault-seconds" -> faultSeconds = Long.parseLong(args[++i]);
        case "--drain-minutes" -> drainMinutes = Long.parseLong(args[++i]);
        case "--dir" -> root = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (root == null) {
      root = Files.createTempDirectory("gantry-soak-");
    }
    ChaosSoak soak =
        new ChaosSoak(
            Duration.ofMinutes(minutes),
            seed,
            Duration.ofSeconds(faultSeconds),
            Duration.ofMinutes(drainMinutes),
            root.toAbsolutePath());
    int status = soak.run();
    System.out.flush();
    // the server JVMs watch this one's end of their input, and stop with it
    Runtime.getRuntime().halt(status);
  }

  private int run() throws Exception {
    Path stepd = Path.of(System.getProperty("soak.repo", "..")).toAbsolutePath().normalize();
    Path launcherDir = stepd.resolve("node-programs/build");
    if (!Files.isExecutable(launcherDir.resolve("gantry-stepd"))) {
      throw new IllegalStateException("build the node programs first: " + launcherDir);
    }
    sample = new SoakSampleVar(stepd);
    Path smallDisk = Files.createDirectories(root.resolve("job-disk"));
    boolean diskMounted =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=128m", "tmpfs", smallDisk.toString())
                .inheritIO()
                .start()
                .waitFor()
            == 0;
    try (RestartablePostgresServer jobStore =
            RestartablePostgresServer.start(root.resolve("job-store-pg"));
        RestartablePostgresServer data = RestartablePostgresServer.start(root.resolve("risk-pg"))) {
      jobStore.createDatabase("gantry");
      this.jobStore = jobStore;
      data.createDatabase("risk");
      createRiskTables(data);
      Path runs = Files.createDirectories(root.resolve("runs"));
      Files.setPosixFilePermissions(runs, PosixFilePermissions.fromString("rwxrwxrwx"));

      Map<String, String> settings = new HashMap<>();
      settings.put("store.url", jobStore.jdbcUrl("gantry"));
      settings.put("store.user", jobStore.user());
      settings.put("store.connection-timeout", "PT2S");
      settings.put("datasource." + SoakJobs.DATA_SOURCE + ".url", data.jdbcUrl("risk"));
      settings.put("datasource." + SoakJobs.DATA_SOURCE + ".user", data.user());
      settings.put("jobs.supervisor", launcherDir.resolve("gantry-stepd").toString());
      settings.put("jobs.allowed-executable-roots", launcherDir.toString());
      settings.put("filesystem.RUNS.path", runs.toString());
      settings.put("slots.total", "4");
      // the job disk is small on purpose (it is filled as a fault); jobs need little of it, but
      // their directories add up (a 2-hour soak filled 128 MB in its first 8 minutes with the
      // default retention, and nothing succeeded after): finished jobs' directories go after a
      // few minutes, the sample jobs' result records read before (sampleRecords)
      settings.put("staging.min-free-bytes", "16M");
      settings.put("jobs.retention", "PT4M");
      settings.putAll(SoakSessions.settings(launcherDir));
      GantryTestServerBuilder builder =
          GantryTestServer.builder(root.resolve("server"))
              .dataDir(smallDisk.resolve("data"))
              .settings(settings)
              .secure()
              .demo(SoakSampleVar.DEMO_POSITIONS)
              .account(TestAccount.admin("soak-admin"));
      for (int u = 1; u <= USERS; u++) {
        builder.account(TestAccount.user("user-" + u));
      }
      List<Faults.Kind> kinds = new ArrayList<>(List.of(Faults.Kind.values()));
      if (!diskMounted) {
        kinds.remove(Faults.Kind.DISK_FILLED);
      }
      Path jobDirectories;
      try (SoakServer server = new SoakServer(builder)) {
        Faults faults = new Faults(server, jobStore, data, smallDisk, root, kinds);
        soak(server, faults, data);
        jobDirectories = server.jobDirectories();
      }
      // the demo database is the server's H2 file: read once the last server has stopped
      checkSampleRows(smallDisk.resolve("data"), jobDirectories);
    } finally {
      if (diskMounted) {
        new ProcessBuilder("umount", "-l", smallDisk.toString()).inheritIO().start().waitFor();
      }
    }
    report.forEach((k, v) -> System.out.println(k + ": " + v));
    violations.forEach(v -> System.out.println("violation: " + v));
    System.out.println("result: " + (violations.isEmpty() ? "PASS" : "FAIL"));
    return violations.isEmpty() ? 0 : 1;
  }

  private void soak(SoakServer server, Faults faults, RestartablePostgresServer data)
      throws Exception {
    put("soak.seed", seed);
    put("soak.minutes", length.toMinutes());
    put("soak.fault_interval_seconds", faultInterval.toSeconds());
    put("soak.fault_kinds", faults.kinds().stream().map(k -> k.label).toList());
    put("soak.cli_user", cli == null ? "none (cli not built)" : CLI_USER);
    ServerVitals atStart = ServerVitals.of(server.pid());
    List<String> schedules = addSchedules(server);
    Instant start = Instant.now();
    Instant end = start.plus(length);
    List<Thread> users = new ArrayList<>();
    for (int u = 1; u <= USERS; u++) {
      String user = "user-" + u;
      Random random = new Random(seed * 1_000 + u);
      Thread t = new Thread(() -> submitUntil(server, user, random, end), user);
      t.start();
      users.add(t);
    }
    Random faultRandom = new Random(seed);
    while (Instant.now().isBefore(end)) {
      Thread.sleep(faultInterval.toMillis() / 2 + faultRandom.nextLong(faultInterval.toMillis()));
      if (Instant.now().isBefore(end)) {
        try {
          String what = faults.injectOne(faultRandom);
          System.err.println(Instant.now() + " fault: " + what);
        } catch (RuntimeException | java.io.IOException | AssertionError e) {
          // what the soak depends on did not come back (a server or database that did not
          // start again): reported, and the soak ends here, its promises checked as far as they
          // can be
          violations.add("a fault's recovery failed, the soak stopped early: " + e);
          break;
        }
      }
    }
    stopping = true;
    for (Thread t : users) {
      t.join();
    }
    for (String id : schedules) {
      retrying(() -> server.client(ownerOfSchedule(id)).removeSchedule(id));
    }
    collectScheduledJobs(server);
    finals = drain(server);
    ServerVitals atEnd = ServerVitals.of(server.pid());
    put("soak.seconds", Duration.between(start, Instant.now()).toSeconds());
    put("server.starts", server.starts());
    check(faults, finals, data, atStart, atEnd);
  }

  private final Map<String, String> scheduleOwners = new ConcurrentHashMap<>();

  private String ownerOfSchedule(String id) {
    return scheduleOwners.get(id);
  }

  /** Users 1 and 2 each keep a valuation scheduled every minute, caught up once after downtime. */
  private List<String> addSchedules(SoakServer server) {
    List<String> ids = new ArrayList<>();
    for (String user : List.of("user-1", "user-2")) {
      ScheduleInfo s =
          retrying(
              () ->
                  server
                      .client(user)
                      .addSchedule(
                          "soak-" + user,
                          "* * * * *",
                          "UTC",
                          MissedRunsName.RUN_ONCE,
                          TestJobs.documentOf(SoakJobs.valuation("scheduled-" + user)),
                          null));
      scheduleOwners.put(s.scheduleId, user);
      ids.add(s.scheduleId);
    }
    return ids;
  }

  /** One user: submit, wait for the job to end (at most {@link #JOB_WAIT}), pause, again. */
  private void submitUntil(SoakServer server, String user, Random random, Instant end) {
    while (!stopping && Instant.now().isBefore(end)) {
      int draw = random.nextInt(20);
      boolean overCli = cli != null && user.equals(CLI_USER);
      if (draw >= 4 && draw < 6 && !overCli) {
        if (!sessions.runOne(server, user, random)) {
          refused.incrementAndGet();
          pause(1_000 + random.nextInt(2_000));
        }
        pause(random.nextInt(2_000));
        continue;
      }
      String kind = draw < 4 ? "farm" : draw == 6 ? "sample-var" : "valuation";
      String doc =
          switch (kind) {
            case "farm" -> SoakJobs.farm("soak-farm", 2 + random.nextInt(4));
            case "sample-var" -> sample.job(server.demoSshPort());
            default -> SoakJobs.valuation("soak-var");
          };
      String id;
      try {
        if (overCli) {
          Path file = Files.createDirectories(root.resolve("cli")).resolve(user + ".jsdl");
          Files.writeString(file, doc);
          id = server.submitWithCli(cli, user, file, root.resolve("cli"));
          submittedByKind.computeIfAbsent("through_cli", k -> new AtomicLong()).incrementAndGet();
        } else {
          id = server.client(user).submitJob(TestJobs.documentOf(doc));
        }
      } catch (Exception refusedOrDown) {
        refused.incrementAndGet();
        pause(1_000 + random.nextInt(2_000));
        continue;
      }
      ownerOf.put(id, user);
      kindOf.put(id, kind);
      submittedByKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
      Instant waitUntil = Instant.now().plus(JOB_WAIT);
      while (!stopping && Instant.now().isBefore(waitUntil)) {
        pause(2_000);
        try {
          JobStatusInfo status = server.client(user).getJobStatus(id);
          if (TestJobs.isFinal(status.state)) {
            if ("sample-var".equals(kind) && status.state.name().equals("SUCCEEDED")) {
              readSampleRecords(server, id);
            }
            break;
          }
        } catch (Exception down) {
          // the server is restarting; ask again
        }
      }
      pause(random.nextInt(2_000));
    }
  }

  /**
   * Jobs the schedules submitted (by their name: the list's entries do not name their schedule),
   * from the administrator's list of every user's jobs.
   */
  private void collectScheduledJobs(SoakServer server) {
    List<JobStatusInfo> all = new ArrayList<>();
    for (int offset = 0; ; offset += LIST_PAGE) {
      int from = offset;
      List<JobStatusInfo> page =
          retrying(
              () -> server.client("soak-admin").listJobs(List.of(), from, LIST_PAGE, true).jobs);
      all.addAll(page);
      if (page.size() < LIST_PAGE) {
        break;
      }
    }
    for (JobStatusInfo s : all) {
      if (s.name != null && s.name.startsWith("scheduled-")) {
        ownerOf.put(s.jobId, s.owner);
        kindOf.put(s.jobId, "scheduled");
        submittedByKind.computeIfAbsent("scheduled", k -> new AtomicLong()).incrementAndGet();
      }
    }
  }

  /** Waits until every acknowledged job is final, or {@link #drain} has passed. */
  private Map<String, JobStatusInfo> drain(SoakServer server) {
    Map<String, JobStatusInfo> finals = new HashMap<>();
    Instant until = Instant.now().plus(drain);
    while (true) {
      for (Map.Entry<String, String> job : ownerOf.entrySet()) {
        if (finals.containsKey(job.getKey())) {
          continue;
        }
        try {
          JobStatusInfo s = server.client(job.getValue()).getJobStatus(job.getKey());
          if (TestJobs.isFinal(s.state)) {
            finals.put(job.getKey(), s);
          }
        } catch (Exception e) {
          // not known (lost) or the server not answering: asked again until the drain ends
        }
      }
      if (finals.size() == ownerOf.size() || Instant.now().isAfter(until)) {
        return finals;
      }
      pause(2_000);
    }
  }

  private void check(
      Faults faults,
      Map<String, JobStatusInfo> finals,
      RestartablePostgresServer data,
      ServerVitals atStart,
      ServerVitals atEnd)
      throws Exception {
    put("jobs.submitted", ownerOf.size());
    new TreeMap<>(submittedByKind).forEach((k, v) -> put("jobs.submitted." + k, v.get()));
    put("jobs.submissions_refused", refused.get());
    for (Faults.Kind k : faults.kinds()) {
      put("faults." + k.label, faults.injected(k));
      if (faults.missed(k) > 0) {
        put("faults." + k.label + ".nothing_to_hit", faults.missed(k));
      }
    }
    Map<String, Long> states = new TreeMap<>();
    finals.values().forEach(s -> states.merge(s.state.name(), 1L, Long::sum));
    states.forEach((k, v) -> put("jobs.final." + k, v));
    Map<String, Long> reasons = new TreeMap<>();
    for (JobStatusInfo s : finals.values()) {
      if (s.failureReason != null) {
        reasons.merge(reasonKind(s.failureReason), 1L, Long::sum);
      }
    }
    reasons.forEach((k, v) -> put("jobs.failure_reason[" + k + "]", v));
    int lost = ownerOf.size() - finals.size();
    put("jobs.lost", lost);
    if (lost > 0) {
      List<String> ids = ownerOf.keySet().stream().filter(id -> !finals.containsKey(id)).toList();
      violations.add(lost + " acknowledged jobs not final after the drain: " + ids);
    }

    Map<String, Integer> runs = countRuns();
    long twice = 0;
    long farmTasksRerun = 0;
    for (Map.Entry<String, Integer> r : runs.entrySet()) {
      if (r.getValue() > 1) {
        if (r.getKey().startsWith("farm-")) {
          farmTasksRerun++;
        } else {
          twice++;
          violations.add("program of job " + r.getKey() + " ran " + r.getValue() + " times");
        }
      }
    }
    put("programs.ran_twice", twice);

    Map<String, Long> timesRun = new HashMap<>();
    for (JobStatusInfo s : finals.values()) {
      if (s.schedule != null && s.scheduledFor != null) {
        timesRun.merge(s.schedule + " " + s.scheduledFor, 1L, Long::sum);
      }
    }
    long timesTwice = timesRun.values().stream().filter(n -> n > 1).count();
    put("schedules.times_submitted", timesRun.size());
    put("schedules.times_submitted_twice", timesTwice);
    if (timesTwice > 0) {
      violations.add(timesTwice + " scheduled times submitted more than once: " + timesRun);
    }
    put("farm_tasks.run_again", farmTasksRerun);

    Map<String, Long> rows = resultRows(data);
    long duplicated = 0;
    long missing = 0;
    long ofUnsucceeded = 0;
    List<String> rowsButNoSuccess = new ArrayList<>();
    for (Map.Entry<String, Long> r : rows.entrySet()) {
      if (r.getValue() > 1) {
        duplicated++;
        violations.add("job " + r.getKey() + " staged out " + r.getValue() + " rows, not 1");
      }
    }
    for (JobStatusInfo s : finals.values()) {
      if (!ROW_PER_JOB.contains(kindOf.get(s.jobId))) {
        continue;
      }
      long n = rows.getOrDefault(s.jobId, 0L);
      if (s.state.name().equals("SUCCEEDED") && n == 0) {
        missing++;
        violations.add("job " + s.jobId + " SUCCEEDED with no stage-out row");
      } else if (!s.state.name().equals("SUCCEEDED") && n > 0) {
        ofUnsucceeded++;
        rowsButNoSuccess.add(s.jobId);
      }
    }
    put("stage_out.rows_duplicated", duplicated);
    put("stage_out.rows_missing", missing);
    put("stage_out.rows_of_jobs_not_succeeded", ofUnsucceeded);
    checkReachedStageOut("stage_out", rowsButNoSuccess);
    sessions.report(this::put);
    violations.addAll(sessions.violations());

    put("server.threads.start", atStart.threads());
    put("server.threads.end", atEnd.threads());
    put("server.fds.start", atStart.fileDescriptors());
    put("server.fds.end", atEnd.fileDescriptors());
    put("server.heap_kib.start", atStart.heapKiB());
    put("server.heap_kib.end", atEnd.heapKiB());
    bound("threads", atStart.threads(), atEnd.threads(), THREADS_SLACK);
    bound("fds", atStart.fileDescriptors(), atEnd.fileDescriptors(), FDS_SLACK);
    bound("heap_kib", atStart.heapKiB(), atEnd.heapKiB(), HEAP_SLACK_KIB);
  }

  /** The kinds whose job stages out one row into {@link SoakJobs#RESULT_TABLE}. */
  private static final java.util.Set<String> ROW_PER_JOB =
      java.util.Set.of("valuation", "scheduled");

  /** A succeeded sample job's result records, before retention removes its directory. */
  private void readSampleRecords(SoakServer server, String id) {
    try {
      sampleRecords.put(id, sample.resultRecords(server.jobDirectories().resolve(id)));
    } catch (java.io.IOException | RuntimeException unreadable) {
      // left to the check at the end (the directory may be there still), else counted unchecked
    }
  }

  /** The sample VaR jobs' stage-out rows in the demo database, against their result files. */
  private void checkSampleRows(Path dataDir, Path jobDirectories) throws Exception {
    Map<String, JobStatusInfo> samples = new HashMap<>();
    finals.forEach(
        (id, s) -> {
          if ("sample-var".equals(kindOf.get(id))) {
            samples.put(id, s);
          }
        });
    SoakSampleVar.Rows rows;
    try {
      rows =
          sample.check(
              dataDir,
              samples,
              id -> {
                Map<String, Long> read = sampleRecords.get(id);
                if (read != null) {
                  return java.util.Optional.of(read);
                }
                try {
                  return java.util.Optional.of(sample.resultRecords(jobDirectories.resolve(id)));
                } catch (java.io.IOException gone) {
                  return java.util.Optional.empty();
                }
              });
    } catch (java.sql.SQLException unreadable) {
      // the demo database is the server's H2 file: a crash may leave it unreadable
      violations.add("the demo database could not be read after the soak: " + unreadable);
      return;
    }
    put("sample_var.stage_out.steps_duplicated", rows.duplicated());
    put("sample_var.stage_out.steps_missing", rows.missing());
    put("sample_var.stage_out.rows_of_jobs_not_succeeded", rows.ofJobsNotSucceeded());
    checkReachedStageOut("sample_var.stage_out", rows.jobsNotSucceededWithRows());
    put("sample_var.succeeded_checked", rows.checked());
    put("sample_var.succeeded_unchecked", rows.unchecked());
    violations.addAll(rows.violations());
  }

  private void bound(String what, long start, long end, long slack) {
    long limit = (long) (start * GROWTH_FACTOR) + slack;
    if (end > limit) {
      violations.add(
          "server " + what + " grew from " + start + " to " + end + " (bound " + limit + ")");
    }
  }

  /** A failure reason without its job's particulars, to count reasons by kind. */
  private static String reasonKind(String reason) {
    String firstClause = reason.split("[:;(]", 2)[0].strip();
    return firstClause.replaceAll("[0-9a-f]{8,}|\\d+", "N");
  }

  /** Runs per program: the number of lines in each file the jobs wrote into RUNS. */
  private Map<String, Integer> countRuns() throws Exception {
    Map<String, Integer> runs = new HashMap<>();
    try (var files = Files.list(root.resolve("runs"))) {
      for (Path f : files.toList()) {
        runs.put(f.getFileName().toString(), Files.readAllLines(f).size());
      }
    }
    return runs;
  }

  /**
   * A job that did not succeed may keep rows its stage-out committed before it failed there (each
   * step commits on its own, for {@code retry-stage-out}; docs/reliability.md); a job whose
   * recorded history never reached STAGING_OUT must have none. Read from the job store's
   * transitions, which outlive the job directories.
   */
  private void checkReachedStageOut(String prefix, List<String> jobIds) {
    long reached = 0;
    List<String> never = new ArrayList<>();
    try (Connection c = jobStore.connect("gantry");
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT COUNT(*) FROM gantry_job_transition WHERE job_id = ? AND to_state = ?")) {
      for (String id : jobIds) {
        ps.setString(1, id);
        ps.setString(2, "STAGING_OUT");
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getLong(1) > 0) {
            reached++;
          } else {
            never.add(id);
          }
        }
      }
    } catch (SQLException e) {
      violations.add("the job store could not be read after the soak: " + e);
      return;
    }
    put(prefix + ".jobs_not_succeeded_with_rows", jobIds.size());
    put(prefix + ".of_those_failed_in_stage_out", reached);
    if (!never.isEmpty()) {
      violations.add(
          prefix + ": rows of jobs that never reached STAGING_OUT: " + never.size() + " " + never);
    }
  }

  private static Map<String, Long> resultRows(RestartablePostgresServer data) throws SQLException {
    Map<String, Long> rows = new HashMap<>();
    try (Connection c = data.connect("risk");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT job_id, COUNT(*) FROM " + SoakJobs.RESULT_TABLE + " GROUP BY job_id")) {
      while (rs.next()) {
        rows.put(rs.getString(1), rs.getLong(2));
      }
    }
    return rows;
  }

  private static void createRiskTables(RestartablePostgresServer data) throws SQLException {
    try (Connection c = data.connect("risk");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE position (position_id INT PRIMARY KEY, quantity DECIMAL(18, 4))");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO position VALUES (?, ?)")) {
        for (int i = 1; i <= POSITIONS; i++) {
          ps.setInt(1, i);
          ps.setBigDecimal(2, java.math.BigDecimal.valueOf(i * 105L, 1));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      s.execute(
          "CREATE TABLE "
              + SoakJobs.RESULT_TABLE
              + " (job_id VARCHAR(64) NOT NULL, value_at_risk DECIMAL(18, 4))");
    }
  }

  private void put(String name, Object value) {
    report.put(name, String.valueOf(value));
  }

  /** Calls {@code call} until the server answers (it may be restarting), for two minutes. */
  private static <T> T retrying(Call<T> call) {
    Instant until = Instant.now().plus(Duration.ofMinutes(2));
    while (true) {
      try {
        return call.call();
      } catch (Exception e) {
        if (Instant.now().isAfter(until)) {
          throw new IllegalStateException("the server did not answer for two minutes", e);
        }
        pause(1_000);
      }
    }
  }

  /** A SOAP call, which may throw the service's checked faults. */
  private interface Call<T> {
    T call() throws Exception;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
