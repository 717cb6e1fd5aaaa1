package io.gantry.server.internal.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobCharge;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.ProgramUsage;
import io.gantry.server.internal.jobstore.StateChange;
import io.gantry.server.internal.jobstore.StoredPlan;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quotas against a real job store: a user's own limit over the one for every user, queued jobs,
 * and core-hours of the current month only, each refusal naming its setting and the use.
 */
class SubmissionQuotasTest {
  @TempDir Path dir;
  private JdbcJobStore store;

  @BeforeEach
  void open() {
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("jobs")));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static Optional<Integer> some(int n) {
    return Optional.of(n);
  }

  private JobRecord submit(String owner, String project, int cores) {
    return store.submit(
        JobId.random(),
        owner,
        "j",
        "<JobDefinition/>",
        new StoredPlan(Path.of("/jobs/j"), "out", "err", List.of()),
        JobOrigin.NONE,
        new JobCharge(project, cores));
  }

  /** Runs a job to its end, its program having used {@code seconds} of wall time. */
  private void ran(String owner, String project, int cores, double seconds) {
    JobRecord job = submit(owner, project, cores);
    store.transition(job.id(), JobState.QUEUED, JobState.STAGING_IN, "stage-in");
    store.transition(job.id(), JobState.STAGING_IN, JobState.STAGED, "staged");
    store.transition(job.id(), JobState.STAGED, JobState.RUNNING, "started");
    store.transition(
        job.id(),
        StateChange.of(JobState.RUNNING, JobState.FAILED, "exited 1")
            .withUsage(new ProgramUsage(seconds, null, null)));
  }

  private SubmissionQuotas quotas(ServerConfig.Quotas quotas, Instant now) {
    return new SubmissionQuotas(quotas, store.accounting(), Clock.fixed(now, ZoneOffset.UTC));
  }

  @Test
  void aUsersOwnLimitGoesOverTheOneForEveryUserAndQueuedJobsAreCounted() throws Exception {
    ServerConfig.Quota none =
        new ServerConfig.Quota(Optional.empty(), Optional.empty(), Optional.empty());
    ServerConfig.Quotas q =
        new ServerConfig.Quotas(
            new ServerConfig.Quota(some(1), Optional.empty(), Optional.empty()),
            Map.of("nightly", new ServerConfig.Quota(some(3), some(2), Optional.empty())),
            Map.of("desk-q", new ServerConfig.Quota(Optional.empty(), some(1), Optional.empty())));
    SubmissionQuotas check = quotas(q, Instant.now());
    submit("alice", null, 1);
    LimitExceededFault alice =
        assertThrows(LimitExceededFault.class, () -> check.check("alice", null));
    assertEquals(
        "quota quota.users.concurrent-jobs is 1 and user alice has 1 unfinished jobs; the job was"
            + " not accepted: wait for some to end or cancel them",
        alice.getMessage());
    assertEquals("QUOTA_EXCEEDED", alice.getFaultInfo().code);

    submit("nightly", null, 1);
    check.check("nightly", null); // its own concurrent-jobs, 3, not everyone's 1
    submit("nightly", "desk-q", 1);
    LimitExceededFault queued =
        assertThrows(LimitExceededFault.class, () -> check.check("nightly", null));
    assertEquals(
        "quota quota.user.nightly.queued-jobs is 2 and user nightly has 2 jobs waiting to start;"
            + " the job was not accepted: wait for some to end or cancel them",
        queued.getMessage());
    LimitExceededFault project =
        assertThrows(LimitExceededFault.class, () -> check.check("bob", "desk-q"));
    assertEquals(
        "quota quota.project.desk-q.queued-jobs is 1 and project desk-q has 1 jobs waiting to"
            + " start; the job was not accepted: wait for some to end or cancel them",
        project.getMessage());
    check.check("bob", "desk-other"); // no quota for that project, none of bob's jobs
    quotas(new ServerConfig.Quotas(none, Map.of(), Map.of()), Instant.now()).check("alice", null);
  }

  @Test
  void coreHoursCountOnlyTheCurrentMonth() throws Exception {
    ran("alice", "desk-a", 4, 1800); // 2 core-hours, ended now
    ServerConfig.Quota twoHours =
        new ServerConfig.Quota(Optional.empty(), Optional.empty(), some(2));
    ServerConfig.Quotas q = new ServerConfig.Quotas(twoHours, Map.of(), Map.of("desk-a", twoHours));
    LimitExceededFault user =
        assertThrows(LimitExceededFault.class, () -> quotas(q, Instant.now()).check("alice", null));
    assertEquals(
        "quota quota.users.core-hours-per-month is 2 and user alice's jobs used 2.00 core-hours"
            + " this month; the job was not accepted (the month's use resets on the 1st, UTC)",
        user.getMessage());
    LimitExceededFault project =
        assertThrows(
            LimitExceededFault.class, () -> quotas(q, Instant.now()).check("bob", "desk-a"));
    assertEquals(
        "quota quota.project.desk-a.core-hours-per-month is 2 and project desk-a's jobs used 2.00"
            + " core-hours this month; the job was not accepted (the month's use resets on the"
            + " 1st, UTC)",
        project.getMessage());
    // a month later the use counts no more
    quotas(q, Instant.now().plus(java.time.Duration.ofDays(32))).check("alice", "desk-a");
  }

  /**
   * Which submissions must be held apart while checked and stored: only those a quota limits (the
   * others share the job store's group commit).
   */
  @Test
  void onlyASubmissionSomeQuotaLimitsIsHeldApart() {
    ServerConfig.Quota none =
        new ServerConfig.Quota(Optional.empty(), Optional.empty(), Optional.empty());
    ServerConfig.Quota one = new ServerConfig.Quota(some(1), Optional.empty(), Optional.empty());
    SubmissionQuotas limited =
        quotas(
            new ServerConfig.Quotas(
                none, Map.of("nightly", one, "idle", none), Map.of("desk-q", none)),
            Instant.now());
    assertFalse(limited.limit("alice", null));
    assertFalse(limited.limit("alice", "desk-other"));
    assertFalse(limited.limit("idle", null)); // listed, but without a limit
    assertTrue(limited.limit("nightly", null));
    assertTrue(limited.limit("alice", "desk-q")); // a listed project is checked
    SubmissionQuotas everyone =
        quotas(new ServerConfig.Quotas(one, Map.of(), Map.of()), Instant.now());
    assertTrue(everyone.limit("alice", null));
    assertFalse(
        quotas(new ServerConfig.Quotas(none, Map.of(), Map.of()), Instant.now())
            .limit("alice", "desk-q"));
  }
}
