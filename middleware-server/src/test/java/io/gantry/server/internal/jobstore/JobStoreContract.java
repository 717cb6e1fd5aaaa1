package io.gantry.server.internal.jobstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every job store database must do; run against H2 and PostgreSQL by the subclasses. */
abstract class JobStoreContract {
  static final String JSDL =
      "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\">"
          + "<RemotePassword>ENC(AbC+/=)</RemotePassword><Name>Värde ≥ 1 €</Name></jsdl:JobDefinition>";

  /**
   * Versioned migration scripts shipped in
   * src/main/resources/io/gantry/server/internal/jobstore/migration.
   */
  private static final long MIGRATIONS = countMigrations();

  /** Counted, not written down, so that each new migration does not have to edit this test too. */
  private static long countMigrations() {
    try (java.util.stream.Stream<java.nio.file.Path> files =
        java.nio.file.Files.list(
            java.nio.file.Path.of(
                "src/main/resources/io/gantry/server/internal/jobstore/migration"))) {
      return files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  protected JdbcJobStore store;

  /** A store on a fresh, empty database. */
  protected abstract JdbcJobStore openFreshStore() throws Exception;

  /** A second store on the database of the last {@link #openFreshStore()}, as after a restart. */
  protected abstract JdbcJobStore reopenStore() throws Exception;

  /** Plain JDBC connection to the database of the last {@link #openFreshStore()}. */
  protected abstract java.sql.Connection connectDirectly() throws Exception;

  @BeforeEach
  void open() throws Exception {
    store = openFreshStore();
  }

  @AfterEach
  void close() throws Exception {
    store.close();
  }

  private JobRecord submit(String owner) {
    return store.submit(owner, "var-run", JSDL);
  }

  private static StoredPlan plan(String dir) {
    return new StoredPlan(
        java.nio.file.Path.of(dir),
        "out/stdout.txt",
        "stderr.txt",
        List.of(
            new StoredPlan.Step(
                DataMovement.STAGE_IN, "sql-extract", 1, "risk", "SELECT 1", "positions.csv"),
            new StoredPlan.Step(
                DataMovement.STAGE_OUT, "sql-load", 2, "risk", "INSERT INTO r VALUES (?)", "r.csv"),
            new StoredPlan.Step(
                DataMovement.STAGE_OUT, "receive", 1, "scp://risk@h:22", null, "r.csv")));
  }

  @Test
  void aJobIsStoredWithItsPlanUnderTheIdThePlanWasMadeFor() throws Exception {
    JobId id = JobId.random();
    JobRecord job = store.submit(id, "alice", "planned", JSDL, plan("/jobs/" + id));
    assertEquals(id, job.id());
    store.close();
    store = reopenStore();
    StoredPlan read = store.plan(id).orElseThrow();
    assertEquals(plan("/jobs/" + id), read, "directory, output files and steps in plan order");
    assertTrue(read.runsProgram());
  }

  @Test
  void aJobStoredWithoutAPlanGetsOneOnceAndKeepsTheFirst() {
    JobRecord job = submit("alice");
    assertTrue(store.plan(job.id()).isEmpty(), "stored as before version 9: no plan");
    StoredPlan stagingOnly =
        new StoredPlan(java.nio.file.Path.of("/jobs/a"), null, null, List.of());
    assertTrue(store.recordPlan(job.id(), stagingOnly));
    assertFalse(store.recordPlan(job.id(), plan("/elsewhere")), "a plan is fixed once");
    assertEquals(stagingOnly, store.plan(job.id()).orElseThrow());
    assertFalse(store.plan(job.id()).orElseThrow().runsProgram());
    assertThrows(UnknownJobException.class, () -> store.recordPlan(JobId.random(), stagingOnly));
  }

  @Test
  void listingsPageNewestFirstWithTheTotalInTheDatabase() {
    List<JobRecord> alices = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      alices.add(submit("alice"));
      submit("bob");
    }
    store.transition(alices.get(4).id(), JobState.QUEUED, JobState.CANCELLED, "cancelled by alice");
    JobPage first = store.newestFirst("alice", Set.of(), 0, 2);
    assertEquals(5, first.total());
    assertEquals(
        List.of(alices.get(4).id(), alices.get(3).id()),
        first.jobs().stream().map(JobRecord::id).toList());
    JobPage last = store.newestFirst("alice", Set.of(), 4, 2);
    assertEquals(List.of(alices.get(0).id()), last.jobs().stream().map(JobRecord::id).toList());
    JobPage queued = store.newestFirst("alice", Set.of(JobState.QUEUED), 0, 10);
    assertEquals(4, queued.total());
    assertEquals(10, store.newestFirst(null, Set.of(), 0, 1).total());
  }

  @Test
  void unfinishedJobsAreCountedPerOwner() {
    JobRecord a = submit("alice");
    submit("alice");
    submit("bob");
    store.transition(a.id(), JobState.QUEUED, JobState.CANCELLED, "cancelled by alice");
    assertEquals(1, store.countUnfinished("alice"));
    assertEquals(1, store.countUnfinished("bob"));
    assertEquals(0, store.countUnfinished("carol"));
  }

  @Test
  void dataMovementsAreKeptPerPhaseAndARerunPhaseReplacesItsRecords() {
    JobRecord job = submit("alice");
    DataMovement first =
        new DataMovement(
            DataMovement.STAGE_IN,
            "sql-extract",
            "demo-market",
            "SELECT 1",
            "a.csv.gz",
            10,
            200,
            "ab".repeat(32),
            0.5,
            false);
    store.recordDataMovements(job.id(), DataMovement.STAGE_IN, List.of(first, first));
    DataMovement out =
        new DataMovement(
            DataMovement.STAGE_OUT,
            "sql-load",
            "demo-market",
            "INSERT ...",
            "results/x.csv",
            3,
            40,
            null,
            0.1,
            true);
    store.recordDataMovements(job.id(), DataMovement.STAGE_OUT, List.of(out));
    DataMovement again =
        new DataMovement(
            DataMovement.STAGE_IN,
            "scp",
            "127.0.0.1:/etc/hosts",
            null,
            "hosts.txt",
            0,
            99,
            "cd".repeat(32),
            0.2,
            false);
    store.recordDataMovements(job.id(), DataMovement.STAGE_IN, List.of(again));
    assertEquals(List.of(again, out), store.dataMovements(job.id()));
    assertEquals(List.of(), store.dataMovements(submit("bob").id()));
  }

  @Test
  void aSubmittedJobIsQueuedWithAFreshIdAndTheSubmissionInItsHistory() {
    JobRecord job = submit("alice");
    assertEquals(JobState.QUEUED, job.state());
    assertEquals(32, job.id().value().length());
    assertEquals(job, store.find(job.id()).orElseThrow());
    List<JobTransition> history = store.history(job.id());
    assertEquals(1, history.size());
    assertNull(history.get(0).from());
    assertEquals(JobState.QUEUED, history.get(0).to());
    assertEquals(job.submittedAt(), history.get(0).at());
    assertNotEquals(job.id(), submit("alice").id());
  }

  @Test
  void theJobDescriptionIsKeptExactlyAsSubmitted() {
    JobRecord job = submit("alice");
    assertEquals(JSDL, store.jobDescription(job.id()).orElseThrow());
    assertTrue(store.jobDescription(JobId.random()).isEmpty());
  }

  @Test
  void aJobWalksTheWholeLifecycleWithTimesExitCodeAndAudit() {
    JobId id = submit("alice").id();
    assertTrue(store.transition(id, JobState.QUEUED, JobState.STAGING_IN, "scheduler picked it"));
    assertTrue(store.updatePhaseDetail(id, JobState.STAGING_IN, "2 of 3 files staged"));
    assertEquals("2 of 3 files staged", store.find(id).orElseThrow().phaseDetail());
    assertTrue(store.transition(id, JobState.STAGING_IN, JobState.STAGED, "input staged"));
    assertTrue(store.transition(id, JobState.STAGED, JobState.RUNNING, "mpirun started"));
    JobRecord running = store.find(id).orElseThrow();
    assertNotNull(running.startedAt());
    assertNull(running.finishedAt());
    assertNull(running.phaseDetail());
    assertTrue(
        store.transition(
            id,
            StateChange.of(JobState.RUNNING, JobState.STAGING_OUT, "program ended")
                .withExitCode(0)));
    assertTrue(store.transition(id, JobState.STAGING_OUT, JobState.SUCCEEDED, "results stored"));

    JobRecord done = store.find(id).orElseThrow();
    assertEquals(JobState.SUCCEEDED, done.state());
    assertEquals(0, done.exitCode());
    assertNotNull(done.finishedAt());
    assertFalse(done.finishedAt().isBefore(done.startedAt()));
    assertNull(done.failureReason());
    List<JobTransition> history = store.history(id);
    assertEquals(6, history.size());
    for (int i = 0; i < history.size(); i++) {
      assertEquals(i + 1, history.get(i).seq());
      if (i > 0) {
        assertEquals(history.get(i - 1).to(), history.get(i).from());
      }
    }
    assertEquals("mpirun started", history.get(3).reason());
  }

  @Test
  void aFailedJobKeepsTheErrorTheUserCanActOn() {
    JobId id = submit("alice").id();
    store.transition(id, JobState.QUEUED, JobState.STAGING_IN, "picked");
    String error = "stage-in: table RISK.POSITIONS does not exist in data source 'risk-db'";
    assertTrue(store.transition(id, JobState.STAGING_IN, JobState.FAILED, error));
    JobRecord failed = store.find(id).orElseThrow();
    assertEquals(error, failed.failureReason());
    assertNotNull(failed.finishedAt());
    assertNull(failed.startedAt());
  }

  @Test
  void aCancelledJobKeepsWhoCancelledIt() {
    JobId id = submit("alice").id();
    assertTrue(store.transition(id, JobState.QUEUED, JobState.CANCELLED, "cancelled by alice"));
    assertEquals("cancelled by alice", store.find(id).orElseThrow().failureReason());
  }

  @Test
  void anIllegalTransitionIsRefusedAndChangesNothing() {
    JobId id = submit("alice").id();
    IllegalTransitionException e =
        assertThrows(
            IllegalTransitionException.class,
            () -> store.transition(id, JobState.QUEUED, JobState.RUNNING, "skip staging"));
    assertTrue(e.getMessage().contains("QUEUED -> RUNNING"), e.getMessage());
    assertThrows(
        IllegalTransitionException.class,
        () -> store.transition(id, JobState.QUEUED, JobState.KILLED, "not running yet"));
    store.transition(id, JobState.QUEUED, JobState.CANCELLED, "user cancelled");
    assertThrows(
        IllegalTransitionException.class,
        () -> store.transition(id, JobState.CANCELLED, JobState.QUEUED, "resurrect"));
    assertEquals(JobState.CANCELLED, store.find(id).orElseThrow().state());
    assertEquals(2, store.history(id).size());
  }

  @Test
  void aRetriedStageOutReopensAFailedJobUntilItEndsAgain() {
    JobId id = submit("alice").id();
    for (JobState[] step :
        new JobState[][] {
          {JobState.QUEUED, JobState.STAGING_IN},
          {JobState.STAGING_IN, JobState.STAGED},
          {JobState.STAGED, JobState.RUNNING},
          {JobState.RUNNING, JobState.STAGING_OUT},
          {JobState.STAGING_OUT, JobState.FAILED}
        }) {
      assertTrue(store.transition(id, step[0], step[1], "step"));
    }
    assertTrue(store.transition(id, JobState.FAILED, JobState.STAGING_OUT, "retried by alice"));
    JobRecord reopened = store.find(id).orElseThrow();
    assertEquals(JobState.STAGING_OUT, reopened.state());
    assertNull(reopened.finishedAt(), "not ended any more");
    assertNull(reopened.failureReason(), "what failed is being redone");
    assertTrue(store.transition(id, JobState.STAGING_OUT, JobState.SUCCEEDED, "done"));
    assertNotNull(store.find(id).orElseThrow().finishedAt());
    assertEquals("retried by alice", store.history(id).get(6).reason());
  }

  @Test
  void aJobsDependenciesAndHoldSurviveARestartAndAHoldIsLiftedOnce() throws Exception {
    JobId first = submit("alice").id();
    JobId other = submit("alice").id();
    JobId waiting = JobId.random();
    store
        .jobConditions()
        .recordAtSubmission(
            waiting,
            List.of(
                new JobDependency(first, JobDependency.Kind.AFTER),
                new JobDependency(other, JobDependency.Kind.AFTER_ANY),
                new JobDependency(other, JobDependency.Kind.AFTER_START),
                new JobDependency(first, JobDependency.Kind.AFTER)),
            "alice");
    store.submit(waiting, "alice", "waits", JSDL, plan("/jobs/" + waiting));
    store.close();
    store = reopenStore();
    JobConditions conditions = store.jobConditions();
    assertEquals(
        List.of(
            new JobDependency(first, JobDependency.Kind.AFTER),
            new JobDependency(other, JobDependency.Kind.AFTER_ANY),
            new JobDependency(other, JobDependency.Kind.AFTER_START)),
        conditions.dependencies(waiting),
        "each named once, after before afterany before afterstart");
    assertEquals(java.util.Optional.of("alice"), conditions.heldBy(waiting));
    assertFalse(conditions.hold(waiting, "bob"), "held already");
    assertTrue(conditions.release(waiting));
    assertFalse(conditions.release(waiting), "a hold is lifted once");
    assertTrue(conditions.heldBy(waiting).isEmpty());
    assertTrue(conditions.hold(waiting, "admin"));
    assertEquals(java.util.Optional.of("admin"), conditions.heldBy(waiting));
    assertTrue(conditions.dependencies(first).isEmpty());
  }

  @Test
  void aTransitionFromAStateTheJobHasLeftReportsFalse() {
    JobId id = submit("alice").id();
    assertTrue(store.transition(id, JobState.QUEUED, JobState.STAGING_IN, "picked"));
    assertFalse(store.transition(id, JobState.QUEUED, JobState.CANCELLED, "too late"));
    assertFalse(store.updatePhaseDetail(id, JobState.QUEUED, "stale"));
    assertEquals(JobState.STAGING_IN, store.find(id).orElseThrow().state());
    assertEquals(2, store.history(id).size());
  }

  /** A stage-in with nothing to stage stores STAGING_IN and STAGED together, or neither. */
  @Test
  void changesInOneTransactionApplyAllWithTheirHistoryOrNone() {
    List<StateChange> stageIn =
        List.of(
            StateChange.of(JobState.QUEUED, JobState.STAGING_IN, "stage-in started"),
            StateChange.of(JobState.STAGING_IN, JobState.STAGED, "stage-in finished"));
    JobId id = submit("alice").id();
    assertTrue(store.transitions(id, stageIn));
    assertEquals(JobState.STAGED, store.find(id).orElseThrow().state());
    List<JobTransition> history = store.history(id);
    assertEquals(
        List.of(JobState.QUEUED, JobState.STAGING_IN, JobState.STAGED),
        history.stream().map(JobTransition::to).toList());
    assertEquals("stage-in finished", history.get(2).reason());

    JobId cancelled = submit("alice").id();
    assertTrue(store.transition(cancelled, JobState.QUEUED, JobState.CANCELLED, "by alice"));
    assertFalse(store.transitions(cancelled, stageIn));
    assertEquals(JobState.CANCELLED, store.find(cancelled).orElseThrow().state());
    assertEquals(2, store.history(cancelled).size());
    assertThrows(
        IllegalArgumentException.class,
        () -> store.transitions(id, List.of(stageIn.get(1), stageIn.get(0))));
  }

  /** Committed without waiting for the disk, but otherwise as {@code transitions}. */
  @Test
  void changesStoredLazilyApplyAllWithTheirHistoryOrNone() {
    List<StateChange> stageIn =
        List.of(
            StateChange.of(JobState.QUEUED, JobState.STAGING_IN, "stage-in started"),
            StateChange.of(JobState.STAGING_IN, JobState.STAGED, "stage-in finished"));
    JobId id = submit("alice").id();
    assertTrue(store.transitionsLazily(id, stageIn));
    assertEquals(JobState.STAGED, store.find(id).orElseThrow().state());
    assertEquals(
        List.of(JobState.QUEUED, JobState.STAGING_IN, JobState.STAGED),
        store.history(id).stream().map(JobTransition::to).toList());

    JobId cancelled = submit("alice").id();
    assertTrue(store.transition(cancelled, JobState.QUEUED, JobState.CANCELLED, "by alice"));
    assertFalse(store.transitionsLazily(cancelled, stageIn));
    assertEquals(2, store.history(cancelled).size());
  }

  /**
   * A compute reference stored lazily (gantry-stepd's, which its start record also holds) is read
   * at once, and the next durable write puts it on disk with its own.
   */
  @Test
  void aComputeReferenceStoredLazilyIsReadAtOnceAndKeptByTheNextDurableWrite() throws Exception {
    JobId id = submit("alice").id();
    store.recordComputeRefLazily(id, "stepd:4242:17");
    assertEquals(Optional.of("stepd:4242:17"), store.computeRef(id));
    assertTrue(store.transition(id, JobState.QUEUED, JobState.CANCELLED, "by alice"));
    store.close();
    store = reopenStore();
    assertEquals(Optional.of("stepd:4242:17"), store.computeRef(id));
  }

  @Test
  void anUnknownJobIsReportedAsSuch() {
    JobId nobody = JobId.random();
    assertTrue(store.find(nobody).isEmpty());
    assertThrows(
        UnknownJobException.class,
        () -> store.transition(nobody, JobState.QUEUED, JobState.CANCELLED, "cancel"));
    assertTrue(store.history(nobody).isEmpty());
  }

  @Test
  void cancelRacingTheSchedulerHasExactlyOneWinner() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 25; round++) {
        JobId id = submit("alice").id();
        CyclicBarrier start = new CyclicBarrier(2);
        Future<Boolean> scheduler =
            pool.submit(
                () -> {
                  start.await();
                  return store.transition(id, JobState.QUEUED, JobState.STAGING_IN, "scheduler");
                });
        Future<Boolean> cancel =
            pool.submit(
                () -> {
                  start.await();
                  return store.transition(id, JobState.QUEUED, JobState.CANCELLED, "user cancel");
                });
        boolean started = scheduler.get(30, TimeUnit.SECONDS);
        boolean cancelled = cancel.get(30, TimeUnit.SECONDS);
        assertTrue(
            started ^ cancelled,
            "round " + round + ": started=" + started + " cancelled=" + cancelled);
        assertEquals(
            started ? JobState.STAGING_IN : JobState.CANCELLED,
            store.find(id).orElseThrow().state());
        assertEquals(2, store.history(id).size(), "one history entry per winning change");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void listingPagesThroughOwnersJobsInSubmissionOrder() {
    List<JobId> alices = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      alices.add(submit("alice").id());
      submit("bob");
    }
    List<JobId> seen = new ArrayList<>();
    JobQuery page = JobQuery.ownedBy("alice", 2);
    for (List<JobRecord> jobs = store.list(page); !jobs.isEmpty(); jobs = store.list(page)) {
      assertTrue(jobs.size() <= 2);
      jobs.forEach(j -> assertEquals("alice", j.owner()));
      jobs.forEach(j -> seen.add(j.id()));
      page = page.after(jobs.get(jobs.size() - 1));
    }
    assertEquals(alices, seen);
    assertEquals(10, store.list(JobQuery.all(100)).size());
  }

  @Test
  void listingFiltersByStateAndTheQueueIsFirstComeFirstServed() {
    JobId first = submit("alice").id();
    JobId second = submit("bob").id();
    JobId third = submit("alice").id();
    store.transition(second, JobState.QUEUED, JobState.STAGING_IN, "picked");
    store.transition(third, JobState.QUEUED, JobState.CANCELLED, "cancelled");

    assertEquals(List.of(first), ids(store.queue(10)));
    assertEquals(
        List.of(first, second),
        ids(
            store.list(
                JobQuery.all(10).inStates(EnumSet.of(JobState.QUEUED, JobState.STAGING_IN)))));
    assertEquals(
        List.of(third),
        ids(store.list(JobQuery.ownedBy("alice", 10).inStates(Set.of(JobState.CANCELLED)))));
    assertEquals(List.of(first, second), ids(store.allInStates(JobState.unfinished())));
  }

  @Test
  void countsCoverEveryState() {
    JobId a = submit("alice").id();
    submit("alice");
    store.transition(a, JobState.QUEUED, JobState.CANCELLED, "cancelled");
    Map<JobState, Long> counts = store.countByState();
    assertEquals(JobState.values().length, counts.size());
    assertEquals(1L, counts.get(JobState.QUEUED));
    assertEquals(1L, counts.get(JobState.CANCELLED));
    assertEquals(0L, counts.get(JobState.RUNNING));
  }

  /**
   * A removed user's records are bound to their immutable id: a later user of the same name
   * inherits no job, schedule or token, and the removed user's schedules go with the user.
   */
  @Test
  void aNewUserWithARemovedUsersNameInheritsNothing() {
    UserAccounts users = store.userAccounts();
    assertTrue(users.add(new UserAccount("carol", UserAccount.Role.USER, "hash-of-old-carol")));
    JobRecord oldJob = submit("carol");
    java.time.Instant now = java.time.Instant.now();
    Schedule every =
        new Schedule(
            "s" + "0".repeat(31),
            "carol",
            "every-minute",
            "* * * * *",
            "UTC",
            Schedule.MissedRuns.RUN_ONCE,
            false,
            now.minusSeconds(600),
            null,
            null,
            null,
            JSDL,
            Map.of());
    assertTrue(store.schedules().add(every));
    store
        .sessionTokens()
        .add(
            new SessionTokens.StoredToken(
                "t" + "0".repeat(31), "carol", "stamp", "laptop", now, now.plusSeconds(3600)),
            "f".repeat(64));

    assertTrue(users.remove("carol"));
    assertTrue(
        store.schedules().find(every.id()).isEmpty(), "removed in the user's own transaction");
    assertEquals("carol (removed user)", store.find(oldJob.id()).orElseThrow().owner());

    assertTrue(users.add(new UserAccount("carol", UserAccount.Role.USER, "hash-of-new-carol")));
    assertEquals(0, store.list(JobQuery.ownedBy("carol", 10)).size(), "no old job is hers");
    assertEquals(0, store.countUnfinished("carol"));
    assertEquals(0, store.newestFirst("carol", Set.of(), 0, 10).total());
    assertNotEquals("carol", store.find(oldJob.id()).orElseThrow().owner());
    assertTrue(store.schedules().list("carol").isEmpty());
    assertFalse(store.schedules().claim(every.id(), now, "fired"), "nothing left to fire");
    assertTrue(store.sessionTokens().findByHash("f".repeat(64)).isEmpty());
    assertTrue(store.sessionTokens().list("carol", now).isEmpty());
    // administrators still see the old job, as the old user's
    assertEquals(List.of(oldJob.id()), ids(store.list(JobQuery.all(10))));

    JobRecord newJob = submit("carol");
    assertEquals("carol", newJob.owner());
    assertEquals(List.of(newJob.id()), ids(store.list(JobQuery.ownedBy("carol", 10))));
  }

  /**
   * Records stored for a name that was no user (the store used without accounts) are not inherited
   * by a user who takes that name later: the schedule no longer fires, the job is not theirs.
   */
  @Test
  void aUserAddedLaterDoesNotInheritRecordsStoredForTheirNameBefore() {
    java.time.Instant now = java.time.Instant.now();
    Schedule s =
        new Schedule(
            "e" + "0".repeat(31),
            "eve",
            "hourly",
            "0 * * * *",
            "UTC",
            Schedule.MissedRuns.SKIP,
            false,
            now.minusSeconds(7200),
            null,
            null,
            null,
            JSDL,
            Map.of());
    assertTrue(store.schedules().add(s));
    JobRecord job = submit("eve");
    assertEquals("eve", store.find(job.id()).orElseThrow().owner());
    assertTrue(store.schedules().claim(s.id(), now.minusSeconds(3600), "fired"));

    assertTrue(store.userAccounts().add(new UserAccount("eve", UserAccount.Role.USER, "h")));
    assertFalse(store.schedules().claim(s.id(), now, "fired"));
    assertTrue(store.schedules().list("eve").isEmpty());
    assertTrue(store.list(JobQuery.ownedBy("eve", 10)).isEmpty());
    assertTrue(UserAccount.removed(store.find(job.id()).orElseThrow().owner()));
  }

  @Test
  void aRestartedStoreMigratesNothingAndSeesEveryCommittedChange() throws Exception {
    JobId id = submit("alice").id();
    store.transition(id, JobState.QUEUED, JobState.STAGING_IN, "picked");
    JobRecord before = store.find(id).orElseThrow();
    store.close();

    store = reopenStore();
    assertEquals(before, store.find(id).orElseThrow());
    assertEquals(2, store.history(id).size());
    assertEquals(
        MIGRATIONS, successfulMigrations(), "each migration recorded once, none applied again");
    assertTrue(store.transition(id, JobState.STAGING_IN, JobState.STAGED, "after restart"));
  }

  private long successfulMigrations() throws Exception {
    try (java.sql.Connection c = connectDirectly();
        java.sql.ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT COUNT(*) FROM \"gantry_schema_version\" WHERE \"success\" AND \"version\" IS NOT NULL")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<JobId> ids(List<JobRecord> jobs) {
    return jobs.stream().map(JobRecord::id).toList();
  }

  /**
   * A job of {@code owner} in {@code project} on {@code cores}, run to its end with {@code used}.
   */
  JobRecord accountedJob(String owner, String project, int cores, ProgramUsage used) {
    JobRecord job =
        store.submit(
            JobId.random(),
            owner,
            "j",
            JSDL,
            plan("/jobs/acct"),
            JobOrigin.NONE,
            new JobCharge(project, cores));
    store.transition(job.id(), JobState.QUEUED, JobState.STAGING_IN, "stage-in");
    store.transition(job.id(), JobState.STAGING_IN, JobState.STAGED, "staged");
    store.transition(job.id(), JobState.STAGED, JobState.RUNNING, "started");
    store.transition(
        job.id(), StateChange.of(JobState.RUNNING, JobState.STAGING_OUT, "exited").withUsage(used));
    store.transition(job.id(), JobState.STAGING_OUT, JobState.SUCCEEDED, "done");
    return job;
  }

  @Test
  void accountingSumsWhatJobsUsedByUserAndByProjectAndCountsWhatQuotasCheck() {
    java.time.Instant before = java.time.Instant.now().minusSeconds(1);
    JobRecord a = accountedJob("alice", "desk-a", 4, new ProgramUsage(10, 30.0, null));
    accountedJob("bob", "desk-a", 2, new ProgramUsage(5, null, 7));
    accountedJob("alice", null, 1, new ProgramUsage(100, 50.0, null));
    DataMovement in =
        new DataMovement(
            DataMovement.STAGE_IN, "sql-extract", "risk", null, "p.csv", 3, 1000, null, 0.1, false);
    DataMovement skipped =
        new DataMovement(
            DataMovement.STAGE_OUT, "sql-load", "risk", null, "r.csv", 3, 999, null, 0.1, true);
    DataMovement out =
        new DataMovement(
            DataMovement.STAGE_OUT, "receive", "h", null, "r.csv", 0, 250, null, 0.1, false);
    store.recordDataMovements(a.id(), DataMovement.STAGE_IN, List.of(in));
    store.recordDataMovements(a.id(), DataMovement.STAGE_OUT, List.of(skipped, out));
    JobRecord waiting =
        store.submit(
            JobId.random(),
            "alice",
            "w",
            JSDL,
            plan("/jobs/w"),
            JobOrigin.NONE,
            new JobCharge("desk-a", 8));
    java.time.Instant after = java.time.Instant.now().plusSeconds(1);
    JobAccounting accounting = store.accounting();

    List<JobAccounting.Line> byUser = accounting.report(before, after, JobAccounting.Grouping.USER);
    assertEquals(
        List.of(
            new JobAccounting.Line("alice", 2, 4 * 10 + 100, 80, 2, 0, 1000, 250),
            new JobAccounting.Line("bob", 1, 10, 0, 0, 7, 0, 0)),
        byUser);
    List<JobAccounting.Line> byProject =
        accounting.report(before, after, JobAccounting.Grouping.PROJECT);
    assertEquals(2, byProject.size(), byProject.toString());
    assertTrue(
        byProject.contains(new JobAccounting.Line("desk-a", 2, 50, 30, 1, 7, 1000, 250)),
        byProject.toString());
    assertTrue(
        byProject.contains(new JobAccounting.Line(null, 1, 100, 50, 1, 0, 0, 0)),
        byProject.toString());
    assertEquals(
        List.of(), accounting.report(after, after.plusSeconds(60), JobAccounting.Grouping.USER));

    // the waiting job counts as unfinished and queued; the ended ones as core-seconds
    assertEquals(new JobAccounting.Use(1, 1, 140), accounting.ofUser("alice", before, after));
    assertEquals(new JobAccounting.Use(1, 1, 50), accounting.ofProject("desk-a", before, after));
    assertEquals(new JobAccounting.Use(1, 1, 0), accounting.ofProject("desk-a", after, after));
    assertEquals(JobState.QUEUED, store.find(waiting.id()).orElseThrow().state());
  }
}
