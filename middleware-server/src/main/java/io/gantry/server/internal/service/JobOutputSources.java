package io.gantry.server.internal.service;

import io.gantry.jsdl.JobOutputUri;
import io.gantry.jsdl.StagingStep;
import io.gantry.server.api.Problem;
import io.gantry.server.internal.jobstore.JobDependency;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.StoredPlan;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The server's rule for a DataStaging {@code Source} naming an earlier job's file ({@code
 * gantry-job:JOB/FILE}), checked when a job is validated or submitted (docs/workflows.md):
 *
 * <ol>
 *   <li>the job exists and belongs to the same user (an administrator too reads only their own
 *       jobs' files); another user's job is "no job" as everywhere else, so an id is not confirmed;
 *   <li>the file is one the producer's stored plan produces: a file its stage-out reads, or its
 *       program's standard output or error (not a file it staged in, nor one it merely left);
 *   <li>the producer has SUCCEEDED, or this job waits for it with {@code gx:After}, or streams its
 *       file with {@code gx:AfterStart} (read while it is written, {@code JobOutputScheme}): a
 *       source never implies a dependency, so that what a job waits for is written in its
 *       description.
 * </ol>
 */
final class JobOutputSources {
  private static final String PATH = "JobDefinition/JobDescription/DataStaging";

  private final Function<JobId, Optional<JobRecord>> jobs;
  private final Function<JobRecord, Optional<StoredPlan>> plans;

  JobOutputSources(
      Function<JobId, Optional<JobRecord>> jobs, Function<JobRecord, Optional<StoredPlan>> plans) {
    this.jobs = jobs;
    this.plans = plans;
  }

  /** The problems of {@code steps}' {@code gantry-job:} sources for a job of {@code owner}. */
  List<Problem> problems(String owner, List<StagingStep> steps, List<JobDependency> dependencies) {
    List<Problem> problems = new ArrayList<>();
    for (StagingStep step : steps) {
      Optional<String> uri = step.source().map(StagingStep.Endpoint::uri);
      if (uri.isEmpty() || !JobOutputUri.is(uri.get())) {
        continue;
      }
      problem(owner, uri.get(), dependencies)
          .ifPresent(p -> problems.add(error(step.where() + " Source " + uri.get() + ": " + p)));
    }
    return problems;
  }

  private Optional<String> problem(String owner, String uri, List<JobDependency> dependencies) {
    JobOutputUri source;
    try {
      source = JobOutputUri.parse(uri);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage()); // the parser said so already
    }
    Optional<JobRecord> found = Optional.empty();
    try {
      found = jobs.apply(JobId.parse(source.job())).filter(j -> j.owner().equals(owner));
    } catch (IllegalArgumentException e) {
      // not an id: no such job, worded as an unknown one
    }
    if (found.isEmpty()) {
      return Optional.of("no job " + source.job() + " for user " + owner);
    }
    JobRecord producer = found.get();
    Optional<StoredPlan> plan = plans.apply(producer);
    if (plan.isEmpty()) {
      return Optional.of(
          "job " + producer.id() + "'s plan cannot be read, so its files are unknown");
    }
    Set<String> produced = produced(plan.get());
    if (!produced.contains(source.file())) {
      return Optional.of(
          "job "
              + producer.id()
              + " produces no file '"
              + source.file()
              + "'; it produces "
              + (produced.isEmpty() ? "none" : String.join(", ", produced))
              + " (its stage-out files, standard output and error)");
    }
    boolean waitsForIt =
        dependencies.stream()
            .anyMatch(
                d ->
                    d.on().equals(producer.id())
                        && (d.kind() == JobDependency.Kind.AFTER
                            || d.kind() == JobDependency.Kind.AFTER_START));
    if (producer.state() == JobState.SUCCEEDED || waitsForIt) {
      return Optional.empty();
    }
    if (producer.state().isFinal()) {
      return Optional.of(
          "job "
              + producer.id()
              + " ended "
              + producer.state()
              + "; only a job that SUCCEEDED hands its files on");
    }
    return Optional.of(
        "job "
            + producer.id()
            + " has not finished ("
            + producer.state()
            + "); name it in gx:Dependencies/gx:After so that this job waits until it succeeds");
  }

  /** The files a stored plan produces, in plan order. */
  static Set<String> produced(StoredPlan plan) {
    Set<String> files = new LinkedHashSet<>();
    plan.steps().stream()
        .filter(s -> io.gantry.server.internal.jobstore.DataMovement.STAGE_OUT.equals(s.phase()))
        .forEach(s -> files.add(s.file()));
    if (plan.runsProgram()) {
      files.add(plan.stdout());
      files.add(plan.stderr());
    }
    return files;
  }

  private static Problem error(String message) {
    Problem p = new Problem();
    p.severity = "ERROR";
    p.path = PATH;
    p.message = message;
    return p;
  }
}
