package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.awaitFinal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Task-farm jobs through a real gantry-server (local backend, sandboxed under the job's account,
 * gantry-launcher from node-programs/build): a 1,000-task sweep staged out into SQL, priorities,
 * failing tasks, a launcher killed with -9, and the server killed with -9 mid-farm. One server (and
 * one risk database, each test with tables of its own) runs the farms of every test but the last,
 * which kills its own server.
 */
class TaskFarmJobsTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path LAUNCHER = REPOSITORY.resolve("node-programs/build/gantry-launcher");
  private static final Duration LIMIT = Duration.ofMinutes(2);
  private static final String ARGUMENT =
      "/jsdl:JobDefinition/jsdl:JobDescription/jsdl:Application/posix:POSIXApplication/posix:Argument";

  @TempDir static Path shared;
  static RiskDatabase risk;
  static GantryTestServer server;
  static JobManagement client;

  @BeforeAll
  static void launcherBuiltAndServerStarted() throws Exception {
    assertTrue(
        Files.isExecutable(LAUNCHER), "build the node programs first (scripts/build): " + LAUNCHER);
    risk = RiskDatabase.h2File(shared);
    server = server(shared, risk.dataSourceSettings()).start();
    client = JobManagementClients.of(server);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static GantryTestServerBuilder server(Path dir, Map<String, String> more) {
    Map<String, String> settings = new HashMap<>(more);
    settings.put("jobs.allowed-executable-roots", LAUNCHER.getParent().toString());
    settings.put("slots.total", "2");
    return GantryTestServer.builder(dir).settings(settings);
  }

  @Test
  void aSweepOfAThousandCombinationsLandsInSqlOneRowPerTask() throws Exception {
    try (Connection c = risk.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE farm_result (task_id INT PRIMARY KEY, a INT, b INT, state VARCHAR(20),"
              + " exit_code INT, sig INT, attempts INT, host VARCHAR(255),"
              + " started_at VARCHAR(40), duration_ms DECIMAL(12, 3), output VARCHAR(4096))");
    }
    TestJobs job =
        TestJobs.job("sweep-1000")
            .posix(300, "/bin/sh", "-c", "echo $(($1 * $2))", "sh", "A", "B")
            .sqlStageOut(
                RiskDatabase.NAME,
                "INSERT INTO farm_result VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                "task-results.csv");
    String sweep =
        "<sweep:Sweep>"
            + assignment(ARGUMENT + "[4]", "<sweepfunc:LoopInteger start=\"1\" end=\"40\"/>")
            + "<sweep:Sweep>"
            + assignment(ARGUMENT + "[5]", "<sweepfunc:LoopInteger start=\"1\" end=\"25\"/>")
            + "</sweep:Sweep></sweep:Sweep>";
    String id =
        client.submitJob(
            TestJobs.documentOf(
                farm(job, "<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>", sweep)));
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(0, end.failedTasks, "a farm whose every task succeeded");
    assertEquals(1000, risk.count("SELECT COUNT(*) FROM farm_result"));
    assertEquals(
        1000,
        risk.count(
            "SELECT COUNT(*) FROM farm_result WHERE state = 'succeeded' AND exit_code = 0"
                + " AND sig IS NULL AND attempts = 1 AND REPLACE(output, CHAR(10), '') = CAST(a * b AS VARCHAR)"),
        "every task's inputs and output in its row");
    assertEquals(
        1000, risk.count("SELECT COUNT(DISTINCT a * 100 + b) FROM farm_result"), "each pair once");
  }

  @Test
  void failingTasksAreRecordedAndTheFarmSucceedsWithTheirCount() throws Exception {
    TestJobs job = TestJobs.job("failures").posix(300, "/bin/sh", "-c", "CMD");
    String sweep =
        "<sweep:Sweep>"
            + assignment(
                ARGUMENT + "[2]",
                values("kill -SEGV $$", "echo bad input; exit 3", "sleep 60", "echo fine"))
            + "</sweep:Sweep>";
    String taskFarm =
        "<gx:TaskFarm><gx:Launchers>2</gx:Launchers><gx:TaskWallTime>2</gx:TaskWallTime>"
            + "</gx:TaskFarm>";
    String id = client.submitJob(TestJobs.documentOf(farm(job, taskFarm, sweep)));
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    List<String> rows = results(server, id);
    assertTrue(rows.get(1).startsWith("1,kill -SEGV $$,signaled,,11,1,"), rows.get(1));
    assertTrue(rows.get(2).startsWith("2,echo bad input; exit 3,exited,3,,1,"), rows.get(2));
    assertTrue(rows.get(2).endsWith(",bad input\n") || rows.get(2).contains("bad input"));
    assertTrue(rows.get(3).startsWith("3,sleep 60,timed_out,,15,1,"), rows.get(3));
    assertTrue(rows.get(4).startsWith("4,echo fine,succeeded,0,,1,"), rows.get(4));
    String audit = String.join("\n", auditReasons(client, id));
    assertTrue(audit.contains("4 tasks final, 1 succeeded, 3 failed"), audit);
    assertEquals(3, end.failedTasks, "the status counts them, not only the audit trail");
  }

  @Test
  void aRerunOfTheFailedTasksRunsOnlyThemAndCarriesTheSucceededRowsOver() throws Exception {
    try (Connection c = risk.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE rerun_ok (n INT)");
      s.execute("INSERT INTO rerun_ok VALUES (1), (3)");
    }
    // task N succeeds only when N is in the staged list: 2 and 4 fail the first time
    TestJobs job =
        TestJobs.job("rerun")
            .sqlStageIn(RiskDatabase.NAME, 1, "SELECT n FROM rerun_ok", "ok.csv")
            .posix(300, "/bin/sh", "-c", "grep -qx \"$1\" ok.csv && echo \"ran $1\"", "sh", "N");
    String sweep =
        "<sweep:Sweep>"
            + assignment(ARGUMENT + "[4]", "<sweepfunc:LoopInteger start=\"1\" end=\"4\"/>")
            + "</sweep:Sweep>";
    String taskFarm = "<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>";
    String first = client.submitJob(TestJobs.documentOf(farm(job, taskFarm, sweep)));
    assertEquals(JobStateName.SUCCEEDED, awaitFinal(client, first, LIMIT).state);
    List<String> before = results(server, first);
    assertTrue(before.get(2).startsWith("2,2,exited,1,,1,"), before.get(2));
    assertTrue(before.get(4).startsWith("4,4,exited,1,,1,"), before.get(4));
    // now only 2 and 4 may succeed: 1 and 3 would fail if they ran again
    try (Connection c = risk.connect();
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM rerun_ok");
      s.execute("INSERT INTO rerun_ok VALUES (2), (4)");
    }

    String rerun = client.resubmitFailedTasks(first);
    JobStatusInfo end = awaitFinal(client, rerun, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    assertEquals(first, end.resubmittedFrom);
    List<String> after = results(server, rerun);
    assertEquals(5, after.size(), after.toString());
    assertEquals(before.get(0), after.get(0), "the same columns");
    for (int task : new int[] {1, 3}) {
      assertEquals(
          before.get(task).replaceFirst("^(\\d+,\\d+,succeeded,0,),1,", "$1,0,"),
          after.get(task),
          "carried over unchanged, marked by attempts 0");
    }
    for (int task : new int[] {2, 4}) {
      assertTrue(
          after.get(task).startsWith(task + "," + task + ",succeeded,0,,1,"), after.get(task));
      assertTrue(after.get(task).contains("ran " + task), after.get(task));
    }
    String audit = String.join("\n", auditReasons(client, rerun));
    assertTrue(audit.contains("4 tasks final, 4 succeeded"), audit);

    String plain = client.submitJob(TestJobs.job("plain").shell("true", 60).document());
    awaitFinal(client, plain, LIMIT);
    jakarta.xml.ws.soap.SOAPFaultException noFarm =
        org.junit.jupiter.api.Assertions.assertThrows(
            jakarta.xml.ws.soap.SOAPFaultException.class, () -> client.resubmitFailedTasks(plain));
    assertTrue(noFarm.getMessage().contains("is no task farm"), noFarm.getMessage());
  }

  @Test
  void highPriorityTasksFromAStagedFileRunFirst() throws Exception {
    // one launcher: the order the tasks ran in is the queue's order
    TestJobs job =
        TestJobs.job("priorities")
            .sqlStageIn(
                RiskDatabase.NAME,
                1,
                "SELECT position_id, CASE WHEN MOD(position_id, 5) = 0 THEN 'high' ELSE 'normal'"
                    + " END AS urgency FROM position ORDER BY position_id",
                "positions.csv")
            .posix(300, "/bin/sh", "-c", "echo $1 >> order", "sh");
    String taskFarm =
        "<gx:TaskFarm><gx:Launchers>1</gx:Launchers><gx:TasksFromFile>"
            + "<gx:FileName>positions.csv</gx:FileName><gx:Argument column=\"POSITION_ID\"/>"
            + "<gx:PriorityColumn>URGENCY</gx:PriorityColumn></gx:TasksFromFile></gx:TaskFarm>";
    String id = client.submitJob(TestJobs.documentOf(farm(job, taskFarm, "")));
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    List<String> order =
        Files.readAllLines(server.jobDirectory(id).resolve("order"), StandardCharsets.UTF_8);
    assertEquals(
        List.of("5", "10", "15", "20", "25", "1", "2", "3", "4", "6"), order.subList(0, 10));
    assertEquals(RiskDatabase.POSITIONS, order.size());
  }

  @Test
  void aLauncherKilledMidTaskHasItsTaskRunAgainElsewhere() throws Exception {
    // task 1 marks its first attempt and sleeps with a tag the test finds in /proc
    String script =
        "if [ -e first-attempt ]; then echo again; exit 0; fi; touch first-attempt;"
            + " exec sleep 61.2345";
    TestJobs job = TestJobs.job("launcher-killed").posix(300, "/bin/sh", "-c", "CMD");
    String sweep =
        "<sweep:Sweep>"
            + assignment(ARGUMENT + "[2]", values(script, "echo a", "echo b", "echo c"))
            + "</sweep:Sweep>";
    String id =
        client.submitJob(
            TestJobs.documentOf(
                farm(job, "<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>", sweep)));
    long sleeper =
        Await.value("task 1 to sleep", LIMIT, TaskFarmJobsTest::taggedSleep, pid -> pid > 0);
    long launcher = parentOf(sleeper);
    assertTrue(
        commandLine(launcher).contains("gantry-launcher"),
        "the sleeper's parent is its launcher: " + commandLine(launcher));
    new ProcessBuilder("kill", "-9", Long.toString(launcher)).start().waitFor();
    JobStatusInfo end = awaitFinal(client, id, LIMIT);
    assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
    List<String> rows = results(server, id);
    assertTrue(rows.get(1).contains(",succeeded,0,,2,"), "attempt 2 succeeded: " + rows.get(1));
    assertTrue(rows.get(1).contains("again"), rows.get(1));
  }

  @Test
  void theServerKilledMidFarmResumesItWithoutRunningAFinishedTaskTwice() throws Exception {
    TestJobs job =
        TestJobs.job("crash").posix(300, "/bin/sh", "-c", "echo $1 >> ran; sleep 0.05", "sh", "N");
    String sweep =
        "<sweep:Sweep>"
            + assignment(ARGUMENT + "[4]", "<sweepfunc:LoopInteger start=\"1\" end=\"300\"/>")
            + "</sweep:Sweep>";
    Path dir = shared.resolve("crash");
    GantryTestServerBuilder builder = server(dir, Map.of()).dataDir(dir.resolve("server"));
    String id;
    Set<String> finishedAtCrash = new HashSet<>();
    Path journal;
    try (GantryTestServer first = builder.name("first").start()) {
      JobManagement client = JobManagementClients.of(first);
      id =
          client.submitJob(
              TestJobs.documentOf(
                  farm(job, "<gx:TaskFarm><gx:Launchers>2</gx:Launchers></gx:TaskFarm>", sweep)));
      Path ran = first.jobDirectory(id).resolve("ran");
      Await.until(
          "60 tasks to run",
          LIMIT,
          () -> Files.exists(ran) && Files.readAllLines(ran).size() >= 60);
      first.killHard();
      journal = first.jobDirectory(id).getParent().resolve(".task-farms").resolve(id + ".journal");
    }
    for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
      finishedAtCrash.add(line.split("\t")[1]);
    }
    assertTrue(
        finishedAtCrash.size() >= 40 && finishedAtCrash.size() < 300,
        "killed mid-farm: " + finishedAtCrash.size());
    try (GantryTestServer second = builder.name("second").start()) {
      JobManagement client = JobManagementClients.of(second);
      JobStatusInfo end = awaitFinal(client, id, LIMIT);
      assertEquals(JobStateName.SUCCEEDED, end.state, end.failureReason);
      Map<String, Long> runs =
          Files.readAllLines(second.jobDirectory(id).resolve("ran")).stream()
              .collect(Collectors.groupingBy(s -> s, Collectors.counting()));
      for (String task : finishedAtCrash) {
        assertEquals(1L, runs.get(task), "task " + task + " had finished and ran again");
      }
      assertEquals(300, runs.size(), "every task ran");
      assertEquals(301, results(second, id).size(), "one row per task and the header");
    }
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** The job with the TaskFarm element and the Sweep added, as a user writes them. */
  private static String farm(TestJobs job, String taskFarm, String sweep) {
    return job.farmXml(taskFarm, sweep);
  }

  private static String assignment(String match, String function) {
    return TestJobs.sweepAssignment(match, function);
  }

  private static String values(String... values) {
    return TestJobs.sweepValues(values);
  }

  /** The result file's records (a quoted output may span lines: records split at CRLF). */
  private static List<String> results(GantryTestServer server, String id) throws Exception {
    String text =
        Files.readString(
            server.jobDirectory(id).resolve("task-results.csv"), StandardCharsets.UTF_8);
    return List.of(text.split("\r\n"));
  }

  private static List<String> auditReasons(JobManagement client, String id) throws Exception {
    return client.getJobAudit(id).entries.stream().map(e -> e.text).toList();
  }

  private static long taggedSleep() throws Exception {
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.toList()) {
        String name = p.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)
            && commandLine(Long.parseLong(name)).equals("sleep 61.2345")) {
          return Long.parseLong(name);
        }
      }
    }
    return 0;
  }

  private static String commandLine(long pid) {
    try {
      return new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ')
          .strip();
    } catch (java.io.IOException gone) {
      return "";
    }
  }

  private static long parentOf(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
  }
}
