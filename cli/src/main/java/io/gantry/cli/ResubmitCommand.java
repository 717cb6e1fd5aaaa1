package io.gantry.cli;

import io.gantry.cli.soap.InvalidJobFault;
import io.gantry.cli.soap.JobStatus;
import io.gantry.cli.soap.Problem;
import io.gantry.cli.soap.RerunStage;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry resubmit ID [--set NAME=VALUE]...}: the same stored job description and parameter
 * values as a new job, any value given replacing the stored one. The server checks the job again as
 * at any submission.
 */
@Command(
    name = "resubmit",
    mixinStandardHelpOptions = true,
    description = {
      "Run a job again as a new job: the same description and parameter values as stored with it,"
          + " each --set replacing one. The new job's status names the original.",
      "With --failed-tasks (a task farm that ended): only its failed or lost tasks run again;"
          + " the new job's result file carries the succeeded tasks' rows over (attempts 0).",
      "With --from-stage NAME and the jobs of a chain (its last job is enough: the jobs it reads"
          + " from and waits for are found): the job named NAME and every job after it run again,"
          + " reading the new jobs' outputs; the stages before it are reused, not run again."
          + " Prints one line per job run again: stage, old id, new id.",
      "Only the job's owner (or an administrator) may resubmit it."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry resubmit 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      "  gantry resubmit 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5 --set business_date=2026-11-19 --wait",
      "  gantry resubmit --failed-tasks 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5 --wait",
      "  gantry resubmit --from-stage aggregate k3v7q2mzx4hq5w6tj2dnr7bcyuepl3fa",
      ExitCodes.HELP
    })
final class ResubmitCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "ID",
      arity = "1..*",
      description = "the job to run again (with --from-stage: jobs of the chain)")
  List<String> jobIds;

  /** The one job resubmitted (without --from-stage). */
  private String jobId;

  @Option(
      names = "--from-stage",
      paramLabel = "NAME",
      description =
          "rerun a chain from its stage NAME (a job's JobName) and every stage after it, reusing"
              + " the outputs of the stages before it")
  String fromStage;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description = "a parameter value replacing the stored one; repeatable")
  List<String> sets;

  @Option(
      names = "--failed-tasks",
      description = "rerun only the failed or lost tasks of a task farm, carrying the others over")
  boolean failedTasks;

  @Option(names = "--wait", description = "wait until the new job ends, showing progress")
  boolean await;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "with --wait: give up waiting after this long; the job goes on")
  Duration timeout;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Map<String, String> values = ParameterValues.of(sets);
    if (fromStage != null) {
      return rerunChain(out, err, values);
    }
    if (jobIds.size() > 1) {
      err.println("gantry resubmit: one job at a time (several only with --from-stage)");
      err.flush();
      return ExitCodes.USAGE_OR_IO;
    }
    jobId = jobIds.get(0);
    if (failedTasks && !values.isEmpty()) {
      err.println(
          "gantry resubmit: --failed-tasks reruns tasks with the stored values; --set cannot"
              + " change them (resubmit the job whole instead)");
      err.flush();
      return ExitCodes.USAGE_OR_IO;
    }
    ServerConnection server = gantry.connect();
    List<Problem>[] rejection = newRejection();
    String newId =
        server.call(
            s -> {
              try {
                return failedTasks
                    ? s.resubmitFailedTasks(jobId)
                    : s.resubmitJob(jobId, ParameterValues.soap(values));
              } catch (InvalidJobFault e) {
                rejection[0] = e.getFaultInfo().getProblem();
                return null;
              }
            });
    if (newId == null) {
      err.println("gantry resubmit: job " + jobId + " is not valid any more:");
      for (Problem p : rejection[0]) {
        if ("ERROR".equals(p.getSeverity())) {
          err.println("  " + p.getPath() + ": " + p.getMessage());
        }
      }
      err.flush();
      return ExitCodes.NEGATIVE;
    }
    if (!gantry.json) {
      out.println(
          gantry.quiet ? newId : "submitted job " + newId + " (resubmission of " + jobId + ")");
      out.flush();
    }
    JobStatus last = await ? WaitCommand.await(gantry, spec, server, newId, timeout, false) : null;
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobId", newId);
      json.put("resubmittedFrom", jobId);
      json.put("status", last == null ? null : JsonOutput.job(last));
      JsonOutput.print(out, json);
    } else if (last != null && !gantry.quiet) {
      out.println(StatusLine.of(last, gantry.colors()));
    }
    return last == null ? ExitCodes.OK : WaitCommand.exitCode(last);
  }

  /** --from-stage: the chain's stage and the stages after it, as new jobs. */
  private Integer rerunChain(PrintWriter out, PrintWriter err, Map<String, String> values) {
    if (failedTasks || !values.isEmpty() || await) {
      err.println(
          "gantry resubmit: --from-stage reruns the stages with their stored values; it takes"
              + " neither --set, --failed-tasks nor --wait (gantry wait the last new job)");
      err.flush();
      return ExitCodes.USAGE_OR_IO;
    }
    List<Problem>[] rejection = newRejection();
    List<RerunStage> again =
        gantry
            .connect()
            .call(
                s -> {
                  try {
                    return s.resubmitChain(jobIds, fromStage);
                  } catch (InvalidJobFault e) {
                    rejection[0] = e.getFaultInfo().getProblem();
                    return null;
                  }
                });
    if (again == null) {
      err.println("gantry resubmit: a stage of the chain is not valid any more (none was rerun):");
      for (Problem p : rejection[0]) {
        if ("ERROR".equals(p.getSeverity())) {
          err.println("  " + p.getPath() + ": " + p.getMessage());
        }
      }
      err.flush();
      return ExitCodes.NEGATIVE;
    }
    if (gantry.json) {
      List<Map<String, Object>> json = new ArrayList<>();
      for (RerunStage r : again) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("stage", r.getStage());
        one.put("resubmittedFrom", r.getOriginalJobId());
        one.put("jobId", r.getNewJobId());
        json.add(one);
      }
      JsonOutput.print(out, Map.of("rerun", json));
    } else {
      for (RerunStage r : again) {
        out.println(
            gantry.quiet
                ? r.getNewJobId()
                : r.getStage() + " " + r.getOriginalJobId() + " -> " + r.getNewJobId());
      }
      out.flush();
    }
    return ExitCodes.OK;
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // a one-slot holder the lambda fills
  private static List<Problem>[] newRejection() {
    return new List[1];
  }
}
