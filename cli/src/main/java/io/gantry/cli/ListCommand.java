package io.gantry.cli;

import io.gantry.cli.soap.JobList;
import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry list}: the caller's jobs as a table, newest first. A job that failed shows why (its
 * first {@value #REASON_WIDTH} characters; {@code gantry status ID} shows all): a FAILED job whose
 * program exited 0 failed in staging, which EXIT alone would hide. A QUEUED job the server keeps
 * back shows in the same column what it waits for ({@code Dependency(after:ID)}, {@code
 * JobHeldUser}), as Slurm's squeue does.
 */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "List jobs, newest first: your own, or with --all every user's (administrators only; "
            + "others get 'access denied', exit 3).",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry list",
      "  gantry list --state RUNNING --state QUEUED",
      "  gantry list --quiet --state FAILED      # ids only",
      GantryCommand.EXIT_CODE_HELP
    })
final class ListCommand implements Callable<Integer> {
  static final int REASON_WIDTH = 80;

  @ParentCommand GantryCommand gantry;
  @Spec CommandSpec spec;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      split = ",",
      description =
          "only jobs in this state (repeat or separate with commas): ${COMPLETION-CANDIDATES}")
  List<JobState> states = new ArrayList<>();

  @Option(names = "--all", description = "every user's jobs (administrators only)")
  boolean allUsers;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "at most this many jobs (default ${DEFAULT-VALUE})")
  int limit;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    JobList list = gantry.connect().call(s -> s.listJobs(states, 0, limit, allUsers));
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.list(list));
      return GantryCommand.EXIT_OK;
    }
    if (gantry.quiet) {
      list.getJob().forEach(j -> out.println(j.getJobId()));
    } else if (list.getJob().isEmpty()) {
      out.println("no jobs");
    } else {
      table(list.getJob()).print(out);
      if (list.getTotal() > list.getJob().size()) {
        out.println(
            "(" + list.getJob().size() + " of " + list.getTotal() + " jobs; --limit shows more)");
      }
    }
    out.flush();
    return GantryCommand.EXIT_OK;
  }

  private TextTable table(List<JobStatus> jobs) {
    TextTable table =
        new TextTable(
            "JOB ID", "NAME", "OWNER", "STATE", "SUBMITTED", "FINISHED", "EXIT", "REASON");
    for (JobStatus j : jobs) {
      table.row(
          j.getJobId(),
          j.getName(),
          j.getOwner(),
          j.getState().value(),
          Times.text(j.getSubmitted()),
          Times.text(j.getFinished()),
          j.getExitCode(),
          brief(j.getReason() != null ? j.getReason() : j.getFailureReason()));
    }
    return table;
  }

  /** The reason on one line, cut to REASON_WIDTH characters; null (shown as "-") if none. */
  static String brief(String reason) {
    if (reason == null || reason.isBlank()) {
      return null;
    }
    String line = reason.strip().replaceAll("\\s+", " ");
    return line.length() <= REASON_WIDTH ? line : line.substring(0, REASON_WIDTH - 3) + "...";
  }
}
