package io.gantry.dispatcher.farm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatcher with real gantry-launcher processes (node-programs/build) over loopback TCP:
 * results, failure isolation, priorities, a launcher killed mid-task, a wrong secret, and resuming
 * from the journal.
 */
class FarmDispatcherTest {
  private static final Path LAUNCHER =
      Path.of("").toAbsolutePath().getParent().resolve("node-programs/build/gantry-launcher");
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final List<Process> launchers = new ArrayList<>();

  @BeforeAll
  static void launcherBuilt() {
    assertTrue(
        Files.isExecutable(LAUNCHER), "build the node programs first (scripts/build): " + LAUNCHER);
  }

  @AfterEach
  void stopLaunchers() throws InterruptedException {
    for (Process p : launchers) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void everyTaskRunsOnceAndItsOutputComesBack() throws Exception {
    List<FarmTask> tasks = new ArrayList<>();
    for (int i = 1; i <= 300; i++) {
      tasks.add(task(i, TaskPriority.NORMAL, "sh", "-c", "echo task $N; echo $N >> ran", "N"));
    }
    Map<Long, TaskResult> results = runFarm(tasks, FarmOptions.defaults(), 3);
    assertEquals(300, results.size());
    for (int i = 1; i <= 300; i++) {
      TaskResult r = results.get((long) i);
      assertTrue(r.succeeded(), "task " + i + ": " + r);
      assertEquals("task " + i + "\n", r.output());
      assertEquals(1, r.attempts());
      assertNotEquals("", r.launcherHost());
    }
    List<String> ran = Files.readAllLines(dir.resolve("ran"));
    assertEquals(300, ran.size(), "each task ran exactly once");
    assertEquals(300, ran.stream().distinct().count());
    Path csv = dir.resolve("results.csv");
    FarmResultsCsv.write(csv, List.of("n"), tasks, results);
    String text = Files.readString(csv);
    assertTrue(
        text.startsWith(
            "task_id,n,state,exit_code,signal,attempts,launcher_host,started_at,duration_ms,output\r\n"
                + "1,1,succeeded,0,,1,"),
        text);
    assertTrue(text.contains(",\"task 1\n\"\r\n2,2,succeeded,0,,1,"), text);
  }

  @Test
  void aFailingTaskIsRecordedAndDisturbsNoOther() throws Exception {
    FarmOptions options = new FarmOptions(2, Duration.ofMillis(500), 4096, Duration.ofSeconds(30));
    List<FarmTask> tasks =
        List.of(
            task(1, TaskPriority.NORMAL, "sh", "-c", "kill -SEGV $$"),
            task(2, TaskPriority.NORMAL, "sh", "-c", "echo bad input; exit 3"),
            task(3, TaskPriority.NORMAL, "sleep", "30"),
            task(4, TaskPriority.NORMAL, "/no/such/program"),
            task(5, TaskPriority.NORMAL, "echo", "fine"),
            task(6, TaskPriority.NORMAL, "echo", "also fine"));
    Map<Long, TaskResult> r = runFarm(tasks, options, 2);
    assertEquals(TaskEnd.SIGNALED, r.get(1L).end());
    assertEquals(11, r.get(1L).code());
    assertEquals(TaskEnd.EXITED, r.get(2L).end());
    assertEquals(3, r.get(2L).code());
    assertEquals("bad input\n", r.get(2L).output());
    assertEquals(TaskEnd.TIMED_OUT, r.get(3L).end());
    assertTrue(r.get(3L).durationMicros() < 20_000_000, "stopped at its wall time");
    assertEquals(TaskEnd.NOT_STARTED, r.get(4L).end());
    assertEquals(2, r.get(4L).code(), "ENOENT");
    assertEquals("fine\n", r.get(5L).output());
    assertTrue(r.get(6L).succeeded());
    for (TaskResult each : r.values()) {
      assertEquals(1, each.attempts(), "a task that ran and failed is not retried: " + each);
    }
  }

  @Test
  void highPriorityTasksRunBeforeNormalOnesAndEachPriorityInOrder() throws Exception {
    List<FarmTask> tasks = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      tasks.add(task(i, TaskPriority.NORMAL, "sh", "-c", "echo $N >> order", "N"));
    }
    for (int i = 7; i <= 10; i++) {
      tasks.add(task(i, TaskPriority.HIGH, "sh", "-c", "echo $N >> order", "N"));
    }
    runFarm(tasks, FarmOptions.defaults(), 1);
    assertEquals(
        List.of("7", "8", "9", "10", "1", "2", "3", "4", "5", "6"),
        Files.readAllLines(dir.resolve("order")));
  }

  @Test
  void aLauncherKilledMidTaskHasItsTaskRunAgainElsewhere() throws Exception {
    String script =
        "if [ -e victim ]; then echo again; exit 0; fi; echo $PPID > victim; exec sleep 60";
    List<FarmTask> tasks = new ArrayList<>();
    tasks.add(task(1, TaskPriority.HIGH, "sh", "-c", script));
    for (int i = 2; i <= 20; i++) {
      tasks.add(task(i, TaskPriority.NORMAL, "echo", "ok"));
    }
    try (FarmDispatcher d = start(tasks, FarmOptions.defaults())) {
      launch(d, 2, SECRET);
      Path victim = dir.resolve("victim");
      Await.until("task 1 to start", LIMIT, () -> Files.exists(victim) && Files.size(victim) > 0);
      long pid = Long.parseLong(Files.readString(victim).trim());
      Process killed = launchers.stream().filter(p -> p.pid() == pid).findFirst().orElseThrow();
      killed.destroyForcibly(); // SIGKILL
      Map<Long, TaskResult> r = d.finished().get(LIMIT.toSeconds() * 3, TimeUnit.SECONDS);
      assertTrue(r.get(1L).succeeded(), r.get(1L).toString());
      assertEquals("again\n", r.get(1L).output());
      assertEquals(2, r.get(1L).attempts());
      assertEquals(20, r.values().stream().filter(TaskResult::succeeded).count());
    }
  }

  @Test
  void aLauncherThatFallsSilentHasItsTaskRunAgainElsewhere() throws Exception {
    // a stopped launcher (SIGSTOP) keeps its connection: its kernel still acknowledges and answers
    // keepalive probes, as a lost host's would not. Only its missing heartbeats tell, as for a host
    // lost with data in flight, where keepalive never gets to probe.
    String script =
        "if [ -e victim ]; then echo again; exit 0; fi; echo $PPID > victim; exec sleep 60";
    List<FarmTask> tasks = new ArrayList<>();
    tasks.add(task(1, TaskPriority.HIGH, "sh", "-c", script));
    for (int i = 2; i <= 6; i++) {
      tasks.add(task(i, TaskPriority.NORMAL, "echo", "ok"));
    }
    FarmOptions beatFast = FarmOptions.defaults().withHeartbeat(Duration.ofMillis(500));
    try (FarmDispatcher d = start(tasks, beatFast)) {
      launch(d, 2, SECRET);
      Path victim = dir.resolve("victim");
      Await.until("task 1 to start", LIMIT, () -> Files.exists(victim) && Files.size(victim) > 0);
      String pid = Files.readString(victim).trim();
      assertEquals(0, new ProcessBuilder("kill", "-STOP", pid).start().waitFor());
      long stopped = System.nanoTime();
      Map<Long, TaskResult> r = d.finished().get(LIMIT.toSeconds() * 3, TimeUnit.SECONDS);
      long tookMillis = (System.nanoTime() - stopped) / 1_000_000;
      assertEquals("again\n", r.get(1L).output(), r.get(1L).toString());
      assertEquals(2, r.get(1L).attempts());
      assertEquals(6, r.values().stream().filter(TaskResult::succeeded).count());
      // 5 missed beats of 500 ms: not before 2.5 s, and well before keepalive's 11 s
      assertTrue(tookMillis >= 2_000, "ended after " + tookMillis + " ms");
    }
  }

  @Test
  void aTaskWhoseLaunchersKeepVanishingEndsLostAfterItsRetries() throws Exception {
    // every attempt kills its own launcher: the task must end LOST after 1 + 1 attempts
    List<FarmTask> tasks =
        List.of(
            task(1, TaskPriority.HIGH, "sh", "-c", "kill -9 $PPID; sleep 5"),
            task(2, TaskPriority.NORMAL, "echo", "ok"));
    try (FarmDispatcher d = start(tasks, new FarmOptions(1, null, 4096, Duration.ofSeconds(30)))) {
      launch(d, 3, SECRET);
      Map<Long, TaskResult> r = d.finished().get(LIMIT.toSeconds() * 3, TimeUnit.SECONDS);
      assertEquals(TaskEnd.LOST, r.get(1L).end());
      assertEquals(2, r.get(1L).attempts());
      assertTrue(r.get(2L).succeeded());
    }
  }

  @Test
  void aLauncherWithTheWrongSecretIsRefusedAndGetsNoTask() throws Exception {
    List<FarmTask> tasks = List.of(task(1, TaskPriority.NORMAL, "touch", "ran"));
    try (FarmDispatcher d = start(tasks, FarmOptions.defaults())) {
      Process intruder = launch(d, 1, "not-the-secret").get(0);
      assertTrue(intruder.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
      assertEquals(2, intruder.exitValue());
      String err =
          new String(
              intruder.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(err.contains("wrong secret"), err);
      assertTrue(!Files.exists(dir.resolve("ran")), "the refused launcher ran nothing");
      launch(d, 1, SECRET);
      assertTrue(d.finished().get(LIMIT.toSeconds(), TimeUnit.SECONDS).get(1L).succeeded());
    }
  }

  @Test
  void aRestartedDispatcherRunsOnlyWhatTheJournalDoesNotHold() throws Exception {
    List<FarmTask> tasks = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      tasks.add(task(i, TaskPriority.NORMAL, "sh", "-c", "echo $N >> ran; sleep 0.05", "N"));
    }
    Map<Long, TaskResult> before;
    try (FarmDispatcher d = start(tasks, FarmOptions.defaults())) {
      launch(d, 1, SECRET);
      Await.until("some tasks to finish", LIMIT, () -> d.progress().finished() >= 10);
    }
    for (Process p : launchers) {
      assertTrue(p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS));
      assertEquals(3, p.exitValue(), "a launcher whose dispatcher went away exits 3");
    }
    try (FarmJournal j = FarmJournal.open(dir.resolve("journal"))) {
      before = Map.copyOf(j.completed());
    }
    assertTrue(before.size() >= 10 && before.size() < 40, "stopped mid-farm: " + before.size());
    Map<Long, TaskResult> after;
    try (FarmDispatcher d = start(tasks, FarmOptions.defaults())) {
      launch(d, 2, SECRET);
      after = d.finished().get(LIMIT.toSeconds() * 3, TimeUnit.SECONDS);
    }
    assertEquals(40, after.size());
    Map<String, Long> runs =
        Files.readAllLines(dir.resolve("ran")).stream()
            .collect(Collectors.groupingBy(s -> s, Collectors.counting()));
    for (long id : before.keySet()) {
      assertEquals(1L, runs.get(Long.toString(id)), "finished task " + id + " ran again");
      assertEquals(before.get(id), after.get(id));
    }
    assertEquals(40, runs.size(), "every task ran");
  }

  @Test
  void theJournalDropsATornLastLine() throws Exception {
    Path file = dir.resolve("torn");
    try (FarmJournal j = FarmJournal.open(file)) {
      j.append(
          List.of(
              new TaskResult(
                  1,
                  TaskEnd.EXITED,
                  0,
                  1,
                  "h",
                  java.time.Instant.ofEpochMilli(5),
                  7,
                  "a,\"b\"\n")));
    }
    Files.writeString(file, "v1\t2\texited\t0", java.nio.file.StandardOpenOption.APPEND);
    try (FarmJournal j = FarmJournal.open(file)) {
      assertEquals(List.of(1L), List.copyOf(j.completed().keySet()));
      assertEquals("a,\"b\"\n", j.completed().get(1L).output());
    }
    assertTrue(Files.readString(file).endsWith("\n"), "the torn line was cut off");
  }

  // ---- helpers ----------------------------------------------------------------------------

  private static final String SECRET = FarmDispatcher.newSecret();

  /** The launchers a test's farm is started for: the most any test here starts at once. */
  private static final int MOST_LAUNCHERS = 3;

  /** A task; with {@code var} set, the task's number travels in that environment variable. */
  private static FarmTask task(long id, TaskPriority p, String exe, String... argsAndVar) {
    List<String> args = new ArrayList<>(List.of(argsAndVar));
    Map<String, String> env = Map.of();
    if (args.size() >= 3 && args.get(args.size() - 1).equals("N")) {
      args.remove(args.size() - 1);
      env = Map.of("N", Long.toString(id));
    }
    return new FarmTask(id, p, exe, args, env, List.of(Long.toString(id)));
  }

  private FarmDispatcher start(List<FarmTask> tasks, FarmOptions options) throws IOException {
    return FarmDispatcher.start(
        "test",
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        SECRET,
        tasks,
        MOST_LAUNCHERS,
        options,
        FarmJournal.open(dir.resolve("journal")));
  }

  private List<Process> launch(FarmDispatcher d, int n, String secret) throws IOException {
    List<Process> started = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString()).directory(dir.toFile());
      pb.environment().put("GANTRY_FARM_DISPATCHER", "127.0.0.1:" + d.address().getPort());
      pb.environment().put("GANTRY_FARM_SECRET", secret);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      started.add(p);
      launchers.add(p);
    }
    return started;
  }

  private Map<Long, TaskResult> runFarm(List<FarmTask> tasks, FarmOptions options, int n)
      throws Exception {
    try (FarmDispatcher d = start(tasks, options)) {
      launch(d, n, SECRET);
      Map<Long, TaskResult> r = d.finished().get(LIMIT.toSeconds() * 3, TimeUnit.SECONDS);
      for (Process p : launchers) {
        assertTrue(p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS), "launcher told DONE exits");
        assertEquals(0, p.exitValue());
      }
      assertTrue(d.progress().complete());
      return r.values().stream()
          .sorted(Comparator.comparingLong(TaskResult::taskId))
          .collect(Collectors.toMap(TaskResult::taskId, x -> x));
    }
  }
}
