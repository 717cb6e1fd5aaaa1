package io.gantry.server.internal.scheduler;

import static io.gantry.server.internal.scheduler.ScriptedPipeline.script;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.JobTransition;
import io.gantry.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meta-scheduler over a real H2 job store, running real processes. */
class MetaSchedulerTest {
  @TempDir Path dir;
  private JdbcJobStore store;
  private ScriptedPipeline pipeline;
  private MetaScheduler<ScriptedPipeline.Plan> scheduler;

  @BeforeEach
  void open() {
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));
    pipeline = new ScriptedPipeline(dir.resolve("jobs"));
  }

  private void startScheduler(int slots) {
    scheduler = new MetaScheduler<>(store, pipeline, slots, 2, Duration.ofSeconds(2));
    scheduler.recover();
  }

  @AfterEach
  void close() throws Exception {
    if (scheduler != null) {
      scheduler.close();
    }
    pipeline.close();
    store.close();
  }

  private JobId submit(String description) {
    JobRecord job = store.submit("alice", "test", description);
    scheduler.submitted(pipeline.plan(job.id(), description));
    return job.id();
  }

  private JobRecord awaitState(JobId id, JobState state) {
    return Await.value(
        "job " + id + " to be " + state,
        Duration.ofSeconds(20),
        () -> store.find(id).orElseThrow(),
        job -> job.state() == state,
        job -> job.state() + ", history: " + store.history(id));
  }

  private CountDownLatch gate(JobId id) {
    return pipeline.stagingGates.computeIfAbsent(id, k -> new CountDownLatch(1));
  }

  @Test
  void jobPassesThroughEveryStateToSucceeded() throws Exception {
    startScheduler(2);
    JobId id = submit(script(1, "ok", "echo hello", "ok"));
    JobRecord job = awaitState(id, JobState.SUCCEEDED);
    assertEquals(0, job.exitCode());
    List<JobState> path = store.history(id).stream().map(JobTransition::to).toList();
    assertEquals(
        List.of(
            JobState.QUEUED,
            JobState.STAGING_IN,
            JobState.STAGED,
            JobState.RUNNING,
            JobState.STAGING_OUT,
            JobState.SUCCEEDED),
        path);
  }

  /** Nothing to stage in: STAGING_IN and STAGED stored in one transaction, at one time. */
  @Test
  void aJobWithNothingToStageInStoresItsStageInInOneStep() throws Exception {
    startScheduler(2);
    JobId id = submit(script(1, "none", "true", "ok"));
    awaitState(id, JobState.SUCCEEDED);
    List<JobTransition> history = store.history(id);
    assertEquals(
        List.of(
            JobState.QUEUED,
            JobState.STAGING_IN,
            JobState.STAGED,
            JobState.RUNNING,
            JobState.STAGING_OUT,
            JobState.SUCCEEDED),
        history.stream().map(JobTransition::to).toList());
    assertEquals(history.get(1).at(), history.get(2).at());
    assertTrue(pipeline.stagedAtNanos.containsKey(id)); // its stage-in ran (the job directory)
  }

  @Test
  void nextJobIsStagedWhileTheFirstRunsAndStartsOnlyAfterIt() throws Exception {
    startScheduler(1);
    JobId first = submit(script(1, "ok", "sleep 1", "ok"));
    JobId second = submit(script(1, "ok", "true", "ok"));
    awaitState(first, JobState.RUNNING);
    awaitState(second, JobState.STAGED);
    assertEquals(
        JobState.RUNNING,
        store.find(first).orElseThrow().state(),
        "second was staged while the first still ran");
    JobRecord a = awaitState(first, JobState.SUCCEEDED);
    JobRecord b = awaitState(second, JobState.SUCCEEDED);
    assertFalse(b.startedAt().isBefore(a.startedAt()), "FCFS: second did not start before first");
  }

  @Test
  void stagedJobDoesNotOvertakeAnEarlierJobStillStaging() throws Exception {
    startScheduler(2);
    JobId slow = submit(script(1, "wait", "true", "ok"));
    JobId quick = submit(script(1, "ok", "true", "ok"));
    awaitState(quick, JobState.STAGED);
    Thread.sleep(300);
    assertEquals(
        JobState.STAGED,
        store.find(quick).orElseThrow().state(),
        "a free slot is not enough: the earlier job comes first");
    gate(slow).countDown();
    JobRecord s = awaitState(slow, JobState.SUCCEEDED);
    JobRecord q = awaitState(quick, JobState.SUCCEEDED);
    assertFalse(q.startedAt().isBefore(s.startedAt()));
  }

  @Test
  void cancelWhileStagingInterruptsTheStagingAndTheQueueMovesOn() throws Exception {
    startScheduler(1);
    JobId blocked = submit(script(1, "wait", "true", "ok"));
    JobId next = submit(script(1, "ok", "true", "ok"));
    awaitState(blocked, JobState.STAGING_IN);
    awaitState(next, JobState.STAGED); // waiting behind the head: only the cancel can free it
    MetaScheduler.Decision d = scheduler.cancel(blocked, "alice");
    assertTrue(d.applied());
    assertEquals(JobState.CANCELLED, d.job().state());
    awaitState(next, JobState.SUCCEEDED);
    assertEquals(JobState.CANCELLED, store.find(blocked).orElseThrow().state());
  }

  @Test
  void cancelOfARunningJobIsRefusedWithItsState() throws Exception {
    startScheduler(1);
    JobId id = submit(script(1, "ok", "sleep 30", "ok"));
    awaitState(id, JobState.RUNNING);
    MetaScheduler.Decision d = scheduler.cancel(id, "alice");
    assertFalse(d.applied());
    assertEquals(JobState.RUNNING, d.job().state());
    assertTrue(scheduler.kill(id, "alice").applied());
    awaitState(id, JobState.KILLED);
  }

  @Test
  void killStopsARunningProgramThatIgnoresSigterm() throws Exception {
    startScheduler(1);
    JobId id = submit(script(1, "ok", "trap '' TERM; sleep 60 & wait; sleep 60", "ok"));
    awaitState(id, JobState.RUNNING);
    assertTrue(scheduler.kill(id, "bob").applied());
    JobRecord job = awaitState(id, JobState.KILLED);
    assertTrue(job.failureReason() == null || !job.failureReason().isEmpty());
    assertTrue(
        store.history(id).get(store.history(id).size() - 1).reason().startsWith("killed by bob"));
    assertEquals(0, pipeline.stageOutRuns.getOrDefault(id, 0), "a killed job is not staged out");
  }

  @Test
  void failingProgramFailsTheJobWithItsExitCode() throws Exception {
    startScheduler(1);
    JobId id = submit(script(1, "ok", "echo broken >&2; exit 3", "ok"));
    JobRecord job = awaitState(id, JobState.FAILED);
    assertEquals(3, job.exitCode());
    assertEquals(
        "the program exited with code 3; see the job's standard error", job.failureReason());
  }

  @Test
  void stageInFailureFailsTheJobAndLetsTheNextOneRun() throws Exception {
    startScheduler(1);
    JobId bad = submit(script(1, "fail", "true", "ok"));
    JobId good = submit(script(1, "ok", "true", "ok"));
    JobRecord job = awaitState(bad, JobState.FAILED);
    assertEquals(
        "stage-in failed: SQL extract to x.csv (group 1) failed on data source 'db': "
            + "no such table",
        job.failureReason());
    awaitState(good, JobState.SUCCEEDED);
  }

  @Test
  void stageOutFailureFailsTheJob() throws Exception {
    startScheduler(1);
    JobId id = submit(script(1, "ok", "true", "fail"));
    JobRecord job = awaitState(id, JobState.FAILED);
    assertTrue(job.failureReason().startsWith("stage-out failed: SQL load of var_summary.csv"));
  }

  @Test
  void wallTimeLimitStopsTheProgram() throws Exception {
    startScheduler(1);
    JobId id = submit(script(1, "ok", "sleep 30", "ok") + "\nwall=1");
    JobRecord job = awaitState(id, JobState.FAILED);
    assertTrue(job.failureReason().startsWith("wall-time limit exceeded"), job.failureReason());
  }

  @Test
  void jobNeedingMoreSlotsThanTheServerHasFailsAtOnce() throws Exception {
    startScheduler(2);
    JobId id = submit(script(3, "ok", "true", "ok"));
    JobRecord job = awaitState(id, JobState.FAILED);
    assertEquals("job needs 3 slots; this server has 2", job.failureReason());
  }

  @Test
  void queuedJobsSurviveARestartAndStartInTheOrderTheyWereSubmitted() throws Exception {
    // a server stopped with five jobs still queued; the next one opens the same store file
    List<JobId> queued = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      queued.add(store.submit("alice", "q" + i, script(1, "ok", "true", "ok")).id());
    }
    store.close();
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));

    startScheduler(1);
    List<JobRecord> ended = queued.stream().map(id -> awaitState(id, JobState.SUCCEEDED)).toList();
    for (int i = 1; i < ended.size(); i++) {
      java.time.Instant previousProgramEnded =
          store.history(queued.get(i - 1)).stream()
              .filter(t -> t.to() == JobState.STAGING_OUT)
              .findFirst()
              .orElseThrow()
              .at();
      assertFalse(
          ended.get(i).startedAt().isBefore(previousProgramEnded),
          "one slot, first come first served: q" + i + " started after q" + (i - 1) + "'s program");
    }
  }

  @Test
  void restartRecoversQueuedStagedAndStagingOutJobsAndFailsRunningOnes() throws Exception {
    // Jobs left in every unfinished state by a server that died.
    JobId queued = store.submit("alice", "q", script(1, "ok", "true", "ok")).id();
    JobId stagingIn = store.submit("alice", "si", script(1, "ok", "true", "ok")).id();
    store.transition(stagingIn, JobState.QUEUED, JobState.STAGING_IN, "stage-in started");
    JobId running = store.submit("alice", "r", script(1, "ok", "true", "ok")).id();
    store.transition(running, JobState.QUEUED, JobState.STAGING_IN, "x");
    store.transition(running, JobState.STAGING_IN, JobState.STAGED, "x");
    store.transition(running, JobState.STAGED, JobState.RUNNING, "x");
    JobId stagingOut = store.submit("alice", "so", script(1, "ok", "true", "ok")).id();
    store.transition(stagingOut, JobState.QUEUED, JobState.STAGING_IN, "x");
    store.transition(stagingOut, JobState.STAGING_IN, JobState.STAGED, "x");
    store.transition(stagingOut, JobState.STAGED, JobState.RUNNING, "x");
    store.transition(stagingOut, JobState.RUNNING, JobState.STAGING_OUT, "x");

    startScheduler(1);
    awaitState(queued, JobState.SUCCEEDED);
    awaitState(stagingIn, JobState.SUCCEEDED);
    assertEquals(
        "server restarted while running; the result is unknown, submit the job again",
        awaitState(running, JobState.FAILED).failureReason());
    awaitState(stagingOut, JobState.SUCCEEDED);
    assertEquals(1, pipeline.stageOutRuns.get(stagingOut));
  }

  @Test
  void aWaitingJobIsAskedAgainOnlyWhenAJobItAwaitsChangesNotOnEveryEvent() throws Exception {
    Map<JobId, AtomicInteger> checks = new ConcurrentHashMap<>();
    JobId[] awaited = new JobId[1];
    Set<JobId> waiters = ConcurrentHashMap.newKeySet();
    JobGate afterFirst =
        new JobGate() {
          @Override
          public Verdict check(JobId job) {
            checks.computeIfAbsent(job, k -> new AtomicInteger()).incrementAndGet();
            if (!waiters.contains(job)) {
              return Verdict.OPEN;
            }
            return store.find(awaited[0]).orElseThrow().state().isFinal()
                ? Verdict.OPEN
                : Verdict.waiting("Dependency(after:" + awaited[0] + ")");
          }

          @Override
          public List<JobId> awaited(JobId job) {
            return waiters.contains(job) ? List.of(awaited[0]) : List.of();
          }
        };
    scheduler = new MetaScheduler<>(store, pipeline, 2, 2, Duration.ofSeconds(2), afterFirst);
    scheduler.recover();
    JobId first = submit(script(1, "ok", "sleep 60", "ok"));
    awaited[0] = first;
    awaitState(first, JobState.RUNNING);
    String description = script(1, "ok", "true", "ok");
    JobRecord record = store.submit("alice", "test", description);
    waiters.add(record.id());
    scheduler.submitted(pipeline.plan(record.id(), description));
    JobId waiter = record.id();
    assertEquals("Dependency(after:" + first + ")", scheduler.waitReason(waiter).orElseThrow());
    scheduler.reconsider(first); // any change of the first noted before now is decided
    int asked = checks.get(waiter).get();
    for (int i = 0; i < 5; i++) {
      awaitState(submit(script(1, "ok", "true", "ok")), JobState.SUCCEEDED);
    }
    scheduler.reconsider(first);
    assertEquals(
        asked,
        checks.get(waiter).get(),
        "five other jobs ran; the job they did not concern was not asked again");
    assertTrue(scheduler.kill(first, "alice").applied());
    awaitState(first, JobState.KILLED);
    awaitState(waiter, JobState.SUCCEEDED);
  }
}
