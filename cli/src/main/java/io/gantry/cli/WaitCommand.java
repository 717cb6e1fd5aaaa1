package io.gantry.cli;

import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry wait ID}: waits for a job to end, showing its progress on standard error, then
 * prints its final status line; the exit code says how it ended.
 */
@Command(
    name = "wait",
    mixinStandardHelpOptions = true,
    description = {
      "Wait for a job to end, showing its state, phase and elapsed time.",
      "On a terminal the progress line is redrawn in place; otherwise a line is written "
          + "each time the state or phase changes. Exit 0 when the job SUCCEEDED, 1 when it "
          + "FAILED, was KILLED or CANCELLED, 5 when --timeout ran out first (the job goes on), "
          + "6 when it is a task farm that SUCCEEDED with failed tasks."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry wait 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      "  gantry wait --timeout 30m $id && gantry results $id",
      ExitCodes.HELP
    })
final class WaitCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "give up after this long (e.g. 90s, 15m, 2h, PT1H); the job is not touched")
  Duration timeout;

  @Override
  public Integer call() {
    JobStatus last = await(gantry, spec, gantry.connect(), jobId, timeout, false);
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.job(last));
    } else if (!gantry.quiet) {
      out.println(StatusLine.of(last, gantry.colors()));
    }
    return exitCode(last);
  }

  /** Waits with the progress display that --quiet and --json allow; shared with submit --wait. */
  static JobStatus await(
      Invocation gantry,
      CommandSpec spec,
      ServerConnection server,
      String jobId,
      Duration timeout,
      boolean follow) {
    ProgressDisplay progress =
        gantry.quiet || gantry.json
            ? null
            : new ProgressDisplay(
                spec.commandLine().getErr(),
                gantry.onTerminal(),
                gantry.colors(),
                gantry.terminalWidth());
    PrintWriter followTo = follow ? spec.commandLine().getOut() : null;
    return new JobWaiter(server, progress, followTo).await(jobId, timeout);
  }

  /**
   * 0 for a clean success; 6 for a farm that SUCCEEDED with failed tasks, so that {@code gantry
   * wait ID && next} does not go on as if every task had worked; 1 for every other final state.
   */
  static int exitCode(JobStatus job) {
    if (job.getState() != JobState.SUCCEEDED) {
      return ExitCodes.NEGATIVE;
    }
    Integer failed = job.getFailedTasks();
    return failed != null && failed > 0 ? ExitCodes.TASKS_FAILED : ExitCodes.OK;
  }
}
