package io.gantry.server.internal.service;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateFault;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.RerunStage;
import io.gantry.server.internal.jobstore.JobConditions;
import io.gantry.server.internal.jobstore.JobDependency;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * resubmitChain (docs/workflows.md, "Rerunning a chain from a stage"): a chain is the jobs given
 * and every job they read from or wait for ({@code gantry-job:} sources, {@code gx:After}, {@code
 * gx:AfterAny}), the caller's own, found upstream from the jobs given. The stage named (a job's
 * JobName) and every job of the chain downstream of it run again as new jobs, in the order they
 * depend on each other, each with its stored description and values and the ids of the jobs run
 * again replaced by their new jobs' ids; the jobs upstream of the stage are not run again, and
 * their outputs (which the server keeps until jobs.retention) are staged into the new jobs as
 * before.
 */
public final class ChainRerun {
  /**
   * A job id inside a description or a value (JobId: 32 characters a-z, 2-7), standing alone as in
   * {@code gantry-job:ID/file}, {@code <gx:After>ID</gx:After>} or a parameter value. A word that
   * only looks like one names no job of the caller's and is left alone.
   */
  private static final Pattern JOB_REFERENCE =
      Pattern.compile("(?<![A-Za-z0-9])([a-z2-7]{32})(?![A-Za-z0-9])");

  /** The most jobs one chain holds: a bound on the walk upstream. */
  static final int MAX_JOBS = 200;

  private final JobStore store;
  private final JobConditions conditions;
  private final VisibleJobs visible;
  private final JobSubmission submission;
  private final JobControl control;

  public ChainRerun(
      JobStore store,
      JobConditions conditions,
      VisibleJobs visible,
      JobSubmission submission,
      JobControl control) {
    this.store = store;
    this.conditions = conditions;
    this.visible = visible;
    this.submission = submission;
    this.control = control;
  }

  /** One job of the chain: its record, and the chain's jobs it reads from or waits for. */
  private record Link(JobRecord job, Set<JobId> upstream, Map<JobId, JobDependency.Kind> waits) {}

  public List<RerunStage> rerunFrom(List<String> jobIds, String stage, Caller caller)
      throws JobNotFoundFault, InvalidJobFault, LimitExceededFault, JobStateFault {
    if (stage == null || stage.isBlank()) {
      throw new InvalidArgumentException("fromStage", "the name of the stage to rerun from");
    }
    if (jobIds == null || jobIds.isEmpty()) {
      throw new InvalidArgumentException("jobId", "at least one job of the chain");
    }
    Map<JobId, Link> chain = chain(jobIds, caller);
    JobRecord from = stage(chain, stage.strip());
    List<Link> again = downstream(chain, from.id());
    check(chain, again);
    return submit(again, caller);
  }

  /** The jobs given and, upstream of them, every job of the caller's they read or wait for. */
  private Map<JobId, Link> chain(List<String> jobIds, Caller caller) throws JobNotFoundFault {
    Map<JobId, Link> chain = new LinkedHashMap<>();
    Deque<JobRecord> next = new ArrayDeque<>();
    for (String id : jobIds) {
      next.add(visible.own(id, caller));
    }
    while (!next.isEmpty()) {
      JobRecord job = next.removeFirst();
      if (chain.containsKey(job.id())) {
        continue;
      }
      if (chain.size() == MAX_JOBS) {
        throw new InvalidArgumentException(
            "jobId", "the chain holds more than " + MAX_JOBS + " jobs; rerun part of it");
      }
      Map<JobId, JobDependency.Kind> waits = new LinkedHashMap<>();
      for (JobDependency d : conditions.dependencies(job.id())) {
        waits.put(d.on(), d.kind());
      }
      Set<JobId> upstream = new LinkedHashSet<>(waits.keySet());
      upstream.addAll(references(job.id()));
      upstream.remove(job.id());
      Set<JobId> own = new LinkedHashSet<>();
      for (JobId u : upstream) {
        // another user's job is never part of a chain of this caller's (nor said to exist)
        Optional<JobRecord> found = visible.find(u.value(), caller);
        if (found.isPresent()) {
          own.add(u);
          next.add(found.get());
        }
      }
      chain.put(job.id(), new Link(job, own, waits));
    }
    return chain;
  }

  /** The job ids the job's stored description and values name ({@code gantry-job:ID/...}). */
  private Set<JobId> references(JobId job) {
    Set<JobId> ids = new LinkedHashSet<>();
    List<String> texts = new ArrayList<>(store.origin(job).parameters().values());
    store.jobDescription(job).ifPresent(texts::add);
    for (String text : texts) {
      Matcher m = JOB_REFERENCE.matcher(text);
      while (m.find()) {
        ids.add(JobId.parse(m.group(1)));
      }
    }
    return ids;
  }

  private static JobRecord stage(Map<JobId, Link> chain, String stage) {
    List<JobRecord> named =
        chain.values().stream().map(Link::job).filter(j -> stage.equals(j.name())).toList();
    if (named.size() == 1) {
      return named.get(0);
    }
    Set<String> names = new TreeSet<>();
    chain.values().stream().map(l -> l.job().name()).filter(n -> n != null).forEach(names::add);
    throw new InvalidArgumentException(
        "fromStage",
        named.isEmpty()
            ? "no stage " + stage + " in the chain; its stages are " + String.join(", ", names)
            : named.size()
                + " jobs of the chain are named "
                + stage
                + " ("
                + named.stream().map(j -> j.id().value()).collect(Collectors.joining(", "))
                + "); name the chain's jobs so that each stage has one");
  }

  /** The stage's job and every job of the chain downstream of it, in the order they depend. */
  private static List<Link> downstream(Map<JobId, Link> chain, JobId from) {
    Set<JobId> again = new LinkedHashSet<>(List.of(from));
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Link l : chain.values()) {
        if (!again.contains(l.job().id()) && l.upstream().stream().anyMatch(again::contains)) {
          again.add(l.job().id());
          grew = true;
        }
      }
    }
    List<Link> ordered = new ArrayList<>();
    Set<JobId> placed = new LinkedHashSet<>();
    while (placed.size() < again.size()) {
      Link ready =
          again.stream()
              .filter(id -> !placed.contains(id))
              .map(chain::get)
              .filter(
                  l ->
                      l.upstream().stream()
                          .noneMatch(u -> again.contains(u) && !placed.contains(u)))
              .min(Comparator.comparingLong(l -> l.job().seq()))
              .orElseThrow(() -> new IllegalStateException("the chain's jobs wait for each other"));
      ordered.add(ready);
      placed.add(ready.job().id());
    }
    return ordered;
  }

  /**
   * The jobs run again have ended, and what they reuse of the jobs upstream is there: a job waited
   * for with After (or read from) SUCCEEDED.
   */
  private static void check(Map<JobId, Link> chain, List<Link> again) throws JobStateFault {
    Set<JobId> rerun = again.stream().map(l -> l.job().id()).collect(Collectors.toSet());
    for (Link l : again) {
      if (!l.job().state().isFinal()) {
        throw JobControl.stateFault(
            "job "
                + l.job().id().value()
                + " ("
                + l.job().name()
                + ") of the chain has not ended ("
                + l.job().state()
                + "); wait for it or cancel it first",
            l.job());
      }
      for (JobId u : l.upstream()) {
        JobRecord up = chain.get(u).job();
        // AfterAny alone waits for any end (and reads nothing: a gantry-job: source needs After)
        boolean reused =
            l.waits().get(u) == JobDependency.Kind.AFTER_ANY
                ? up.state().isFinal()
                : up.state() == JobState.SUCCEEDED;
        if (!rerun.contains(u) && !reused) {
          throw JobControl.stateFault(
              "stage "
                  + up.name()
                  + " (job "
                  + u.value()
                  + ") is "
                  + up.state()
                  + ", so its outputs cannot be reused; rerun the chain from it",
              up);
        }
      }
    }
  }

  private List<RerunStage> submit(List<Link> again, Caller caller)
      throws InvalidJobFault, LimitExceededFault, JobNotFoundFault {
    Map<String, String> renamed = new LinkedHashMap<>();
    List<RerunStage> done = new ArrayList<>();
    try {
      for (Link l : again) {
        JobRecord job = l.job();
        String description = renamed(store.jobDescription(job.id()).orElseThrow(), renamed);
        Map<String, String> values = new LinkedHashMap<>();
        store.origin(job.id()).parameters().forEach((k, v) -> values.put(k, renamed(v, renamed)));
        String id =
            submission.submit(
                StoredDocuments.document(description, values),
                caller.name().equals(job.owner()) ? caller : new Caller(job.owner(), false),
                new JobOrigin(Map.of(), job.id(), null, null, null));
        renamed.put(job.id().value(), id);
        done.add(new RerunStage(job.name(), job.id().value(), id));
      }
      return done;
    } catch (InvalidJobFault | LimitExceededFault | RuntimeException e) {
      // all or nothing: the stages already submitted would run without the rest
      for (RerunStage s : done) {
        try {
          control.cancel(s.newJobId, caller);
        } catch (JobStateFault started) {
          stop(s.newJobId, caller);
        } catch (RuntimeException notCancelled) {
          // the store failing: the refusal below is what the caller needs to see first
        }
      }
      throw e;
    }
  }

  /** Kills a new job whose program has started already; one that has ended is left alone. */
  private void stop(String jobId, Caller caller) throws JobNotFoundFault {
    try {
      control.kill(jobId, caller);
    } catch (JobStateFault ended) {
      // it ended meanwhile: nothing to stop
    }
  }

  private static String renamed(String text, Map<String, String> renamed) {
    Matcher m = JOB_REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(renamed.getOrDefault(m.group(1), m.group(1))));
    }
    m.appendTail(out);
    return out.toString();
  }
}
