package io.gantry.server.internal.service;

import io.gantry.jsdl.JobChain;
import io.gantry.server.api.ChainStage;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.api.Problem;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.plan.StoredPlans;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * submitChain (docs/workflows.md, "A chain submitted as one unit"): the stages of a {@code
 * gx:JobChain}, each checked as submitJob checks a job once the stages it names are replaced by the
 * ids their jobs will have, then stored together in one transaction (all or none) and handed to the
 * scheduler. A stage waits for what its own {@code gx:After} says, as any job does.
 */
final class ChainSubmission {
  private final JobSubmission submission;

  ChainSubmission(JobSubmission submission) {
    this.submission = submission;
  }

  /** The stages checked, in the order they are stored; the report has every stage's problems. */
  private record Checked(
      ValidationResult result, List<String> stages, List<JobSubmission.Checked> jobs) {}

  List<ChainStage> submit(JobDocument chain, Caller caller, JobOrigin origin)
      throws InvalidJobFault, LimitExceededFault {
    Checked checked = check(chain, caller);
    if (!checked.result().valid) {
      throw new InvalidJobFault(
          "the chain is invalid: "
              + checked.result().problems.stream().filter(p -> p.severity.equals("ERROR")).count()
              + " problem(s)",
          checked.result());
    }
    List<String> ids = submission.storeAll(checked.jobs(), caller, origin);
    List<ChainStage> stages = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      stages.add(new ChainStage(checked.stages().get(i), ids.get(i)));
    }
    return stages;
  }

  ValidationResult validate(JobDocument chain, Caller caller) {
    return check(chain, caller).result();
  }

  private Checked check(JobDocument document, Caller caller) {
    ValidationResult result = new ValidationResult();
    JobChain chain;
    try {
      chain = JobChain.read(document.getJobDefinition());
    } catch (IllegalArgumentException e) {
      result.problems.add(error("JobChain", e.getMessage()));
      return new Checked(result, List.of(), List.of());
    }
    Map<String, String> values = TemplateValues.of(document.getParameters());
    Set<String> declared = new LinkedHashSet<>();
    chain.stages().forEach(s -> declared.addAll(s.parameters()));
    for (String name : values.keySet()) {
      if (!declared.contains(name)) {
        result.problems.add(
            error(
                "JobChain",
                "parameter "
                    + name
                    + " is given a value but no stage declares it; the stages declare "
                    + (declared.isEmpty() ? "none" : String.join(", ", declared))));
      }
    }
    Map<String, String> ids = new LinkedHashMap<>();
    Map<JobId, JobSubmission.Pending> earlier = new LinkedHashMap<>();
    List<JobSubmission.Checked> jobs = new ArrayList<>();
    Set<String> invalid = new LinkedHashSet<>();
    for (JobChain.Stage stage : chain.stages()) {
      List<String> broken = stage.upstream().stream().filter(invalid::contains).toList();
      if (!broken.isEmpty()) {
        // its references cannot be resolved: checking it would only repeat the upstream problem
        invalid.add(stage.name());
        result.problems.add(
            error(
                "JobChain",
                "stage "
                    + stage.name()
                    + " is not checked: it names stage "
                    + String.join(", ", broken)
                    + ", which is invalid"));
        continue;
      }
      Map<String, String> own = new LinkedHashMap<>();
      values.forEach(
          (k, v) -> {
            if (stage.parameters().contains(k)) {
              own.put(k, v);
            }
          });
      JobSubmission.Checked checked =
          submission.check(
              StoredDocuments.document(chain.document(stage, ids), own), caller, earlier);
      for (Problem p : checked.result().problems) {
        // the line and column count in the stage as the server rebuilt it, not in the chain's
        // file: the path and the stage's name place it
        p.message = "stage " + stage.name() + ": " + named(p.message, ids);
        p.line = 0;
        p.column = 0;
        result.problems.add(p);
      }
      if (!checked.result().valid) {
        invalid.add(stage.name());
        continue;
      }
      JobId id = checked.plan().jobId();
      ids.put(stage.name(), id.value());
      earlier.put(
          id,
          new JobSubmission.Pending(
              new JobRecord(
                  id,
                  0,
                  caller.name(),
                  stage.name(),
                  JobState.QUEUED,
                  Instant.now(),
                  null,
                  null,
                  null,
                  null,
                  null,
                  null),
              StoredPlans.of(checked.plan())));
      jobs.add(checked);
    }
    result.valid = result.problems.stream().noneMatch(p -> "ERROR".equals(p.severity));
    return new Checked(result, chain.names(), jobs);
  }

  /**
   * The message with the ids of earlier stages (which nothing was stored under yet) written as the
   * stages the user named.
   */
  private static String named(String message, Map<String, String> ids) {
    String named = message;
    for (Map.Entry<String, String> e : ids.entrySet()) {
      named =
          named
              .replace("gantry-job:" + e.getValue(), "gantry-job:" + e.getKey())
              .replace("job " + e.getValue(), "stage " + e.getKey())
              .replace(e.getValue(), e.getKey());
    }
    return named;
  }

  private static Problem error(String path, String message) {
    Problem p = new Problem();
    p.severity = "ERROR";
    p.path = path;
    p.message = message;
    return p;
  }
}
