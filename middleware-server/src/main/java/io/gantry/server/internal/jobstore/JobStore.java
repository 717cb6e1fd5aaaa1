package io.gantry.server.internal.jobstore;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable record of every job and its history. Each method is one committed transaction: when
 * it returns, the change survives a crash of the server, so the server may act on it.
 */
public interface JobStore {

  /**
   * Stores a new job in QUEUED, with its description as submitted (passwords in it are already
   * encrypted values, never clear text), and returns it with its fresh id.
   */
  JobRecord submit(String owner, String name, String jobDescription);

  /**
   * Stores a new job in QUEUED together with its plan, under {@code id} (the id the plan was made
   * for), in one transaction: a job is never seen without the plan its readers rely on.
   */
  JobRecord submit(JobId id, String owner, String name, String jobDescription, StoredPlan plan);

  /**
   * {@link #submit(JobId, String, String, String, StoredPlan)} with the job's template values and
   * where it came from (a resubmission, a schedule), stored in the same transaction.
   */
  JobRecord submit(
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin);

  /**
   * {@link #submit(JobId, String, String, String, StoredPlan, JobOrigin)} with what the job is
   * charged to and for (its project and cores), stored in the same transaction.
   */
  JobRecord submit(
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin,
      JobCharge charge);

  /**
   * Stores several new jobs, each with its plan, origin, charge and conditions, in one transaction:
   * all of them or, when one cannot be stored, none (a chain submitted as one unit,
   * docs/workflows.md).
   */
  List<JobRecord> submitAll(List<NewJob> jobs);

  /** One job of {@link #submitAll}: what {@code submit} stores, and what it waits for. */
  record NewJob(
      JobId id,
      String owner,
      String name,
      String jobDescription,
      StoredPlan plan,
      JobOrigin origin,
      JobCharge charge,
      List<JobDependency> dependencies,
      String heldBy) {}

  /** The job's template values and where it came from; {@link JobOrigin#NONE}-like when none. */
  JobOrigin origin(JobId id);

  /**
   * The template values of those of {@code ids} that were filled from a template, in one read (a
   * job list's page); a job without values is absent.
   */
  java.util.Map<JobId, java.util.Map<String, String>> parameters(java.util.List<JobId> ids);

  /**
   * Records the plan of a job stored without one (before job store version 9). False, and nothing
   * changed, when the job has a plan already: a plan is fixed once.
   *
   * @throws UnknownJobException if there is no such job
   */
  boolean recordPlan(JobId id, StoredPlan plan);

  /** The plan stored with the job; empty for a job stored before plans were. */
  Optional<StoredPlan> plan(JobId id);

  Optional<JobRecord> find(JobId id);

  /** The job description as submitted. */
  Optional<String> jobDescription(JobId id);

  /**
   * Moves a job from {@code change.from()} to {@code change.to()} if, and only if, it is still in
   * {@code change.from()}: the update and its history entry commit together or not at all. This is
   * how a cancel and the scheduler can race safely: exactly one of them wins.
   *
   * @return true if this call moved the job; false if the job was in another state by then
   * @throws IllegalTransitionException if the lifecycle does not allow from -> to (checked first)
   * @throws UnknownJobException if there is no such job
   */
  boolean transition(JobId id, StateChange change);

  /**
   * Moves a job through {@code changes} in turn, in one transaction: each as {@link
   * #transition(JobId, StateChange)} would, with its own history entry and events, and one sync of
   * the store for all of them. For steps with nothing between them to act on (a stage-in with
   * nothing to stage).
   *
   * @return true if every change applied; false, with none applied, if the job was not in the first
   *     change's state by then
   * @throws IllegalArgumentException if a change does not start where the one before it ended
   */
  boolean transitions(JobId id, List<StateChange> changes);

  /**
   * {@link #transitions} for steps whose loss in a crash harms nobody: committed, but not waited
   * for on disk (H2), because what the server does next is stored durably after them, and that
   * write's sync takes these with it. For a stage-in with nothing to stage: a job a restarted
   * server finds QUEUED again is staged in again, and the program starts only after RUNNING is
   * durable.
   */
  boolean transitionsLazily(JobId id, List<StateChange> changes);

  default boolean transition(JobId id, JobState from, JobState to, String reason) {
    return transition(id, StateChange.of(from, to, reason));
  }

  /** Updates the progress text of a job that is still in {@code state}; false if it moved on. */
  boolean updatePhaseDetail(JobId id, JobState state, String detail);

  /**
   * The jobs a user sees in a listing, newest first, skipping {@code offset} of them: owner null
   * for everyone's, states empty for all.
   */
  JobPage newestFirst(String owner, java.util.Set<JobState> states, int offset, int limit);

  /** A page of jobs in submission order. */
  List<JobRecord> list(JobQuery query);

  /** The oldest QUEUED jobs, first come first served. */
  default List<JobRecord> queue(int limit) {
    return list(JobQuery.all(limit).inStates(java.util.EnumSet.of(JobState.QUEUED)));
  }

  /**
   * Every job in one of {@code states}, oldest first: what a restarted server must pick up again.
   */
  default List<JobRecord> allInStates(java.util.Set<JobState> states) {
    List<JobRecord> all = new java.util.ArrayList<>();
    JobQuery page = JobQuery.all(JobQuery.MAX_LIMIT).inStates(states);
    for (List<JobRecord> jobs = list(page); !jobs.isEmpty(); jobs = list(page)) {
      all.addAll(jobs);
      page = page.after(jobs.get(jobs.size() - 1));
    }
    return all;
  }

  /** Jobs of {@code owner} that have not reached a final state. */
  long countUnfinished(String owner);

  /** Number of jobs in each state (every state present, zero if none). */
  Map<JobState, Long> countByState();

  /** The job's audit trail, oldest first; empty if there is no such job. */
  List<JobTransition> history(JobId id);

  /**
   * Records what one staging phase of a job moved, replacing what an earlier attempt of the same
   * phase recorded, in one transaction.
   */
  void recordDataMovements(JobId id, String phase, List<DataMovement> movements);

  /** Every data movement of the job, stage-in first, each phase in the order recorded. */
  List<DataMovement> dataMovements(JobId id);

  /**
   * Records where the job's program runs outside this server (the Slurm job id), so that a
   * restarted server can follow it again. Written once the batch system accepted the job.
   */
  default void recordComputeRef(JobId id, String ref) {
    throw new UnsupportedOperationException("this job store keeps no compute references");
  }

  /**
   * {@link #recordComputeRef} without waiting for the disk (the next durable write syncs it), for a
   * reference that a restarted server finds again without it (gantry-stepd's start record).
   */
  default void recordComputeRefLazily(JobId id, String ref) {
    recordComputeRef(id, ref);
  }

  /** The reference {@link #recordComputeRef} stored, if any. */
  default Optional<String> computeRef(JobId id) {
    return Optional.empty();
  }
}
