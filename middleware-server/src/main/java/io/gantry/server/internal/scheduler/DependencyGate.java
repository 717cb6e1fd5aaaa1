package io.gantry.server.internal.scheduler;

import io.gantry.server.internal.jobstore.JobConditions;
import io.gantry.server.internal.jobstore.JobDependency;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The gate of job dependencies and holds, decided from the job store alone (so a restarted server
 * decides as the one before it):
 *
 * <ol>
 *   <li>An {@code after} dependency that ended in any final state but SUCCEEDED can never be
 *       satisfied: the job fails ({@code DependencyNeverSatisfied}), held or not, rather than wait
 *       forever. Except a job that FAILED in its stage-out, its program having succeeded ({@link
 *       StageOutFailure}): {@code retry-stage-out} can still make it SUCCEEDED, so the dependent
 *       job waits ({@code Dependency(after:ID stage-out failed: retry-stage-out ID runs this job)})
 *       and runs once the retried stage-out succeeds; cancel it to give up.
 *   <li>An {@code afterstart} dependency (a job that streams the other's files) is satisfied once
 *       the other's program has started (RUNNING, STAGING_OUT or SUCCEEDED); one that ended
 *       otherwise fails the job as an {@code after} does.
 *   <li>A held job waits ({@code JobHeldUser}) until released.
 *   <li>Otherwise the job waits while any job it depends on has not ended ({@code
 *       Dependency(after:ID,afterany:ID)}, naming those still awaited).
 * </ol>
 *
 * Cycles cannot occur: a job may only name jobs that existed when it was submitted, and a job's
 * dependencies never change afterwards.
 */
public final class DependencyGate implements JobGate {
  private final JobStore store;
  private final JobConditions conditions;

  public DependencyGate(JobStore store, JobConditions conditions) {
    this.store = store;
    this.conditions = conditions;
  }

  @Override
  public List<JobId> awaited(JobId job) {
    return conditions.dependencies(job).stream().map(JobDependency::on).distinct().toList();
  }

  @Override
  public Verdict check(JobId job) {
    List<String> awaited = new ArrayList<>();
    for (JobDependency d : conditions.dependencies(job)) {
      Optional<JobRecord> other = store.find(d.on());
      if (other.isEmpty()) {
        return Verdict.never(
            "DependencyNeverSatisfied: job " + d.on() + " (" + d + ") no longer exists");
      }
      JobState state = other.get().state();
      if (d.kind() == JobDependency.Kind.AFTER_START
          && (state == JobState.RUNNING || state == JobState.STAGING_OUT)) {
        continue; // its program runs: this job may read its files as they are written
      }
      if (!state.isFinal()) {
        awaited.add(d.toString());
      } else if (d.kind() == JobDependency.Kind.AFTER && StageOutFailure.of(store, other.get())) {
        awaited.add(d + " stage-out failed: retry-stage-out " + d.on() + " runs this job");
      } else if (d.kind() == JobDependency.Kind.AFTER && state != JobState.SUCCEEDED) {
        return Verdict.never(
            "DependencyNeverSatisfied: job "
                + d.on()
                + " ended "
                + state
                + ", and this job was to start only after it SUCCEEDED ("
                + d
                + ")");
      } else if (d.kind() == JobDependency.Kind.AFTER_START && state != JobState.SUCCEEDED) {
        return Verdict.never(
            "DependencyNeverSatisfied: job "
                + d.on()
                + " ended "
                + state
                + ", and this job was to read its files as it ran ("
                + d
                + ")");
      }
    }
    Optional<String> holder = conditions.heldBy(job);
    if (holder.isPresent()) {
      return Verdict.waiting("JobHeldUser (held by " + holder.get() + ")");
    }
    return awaited.isEmpty()
        ? Verdict.OPEN
        : Verdict.waiting("Dependency(" + awaited.stream().collect(Collectors.joining(",")) + ")");
  }
}
