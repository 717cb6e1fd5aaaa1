package io.gantry.cli;

import io.gantry.cli.soap.JobResults;
import io.gantry.cli.soap.StagedFile;
import io.gantry.jsdl.JobProgress;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry results ID}: what a job moved, for checking inputs and finding outputs. */
@Command(
    name = "results",
    mixinStandardHelpOptions = true,
    description =
        "Show a job's staging manifest (every file staged in) and its stage-out summary: "
            + "step, source and target, rows, bytes, seconds and checksum. With --follow, first "
            + "print the job's live results while it runs: each new checkpoint of its progress "
            + "file (progress.csv, docs/live-results.md; mcvar's running VaR and ES with their "
            + "standard errors), until the job has ended.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry results 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      "  gantry results --follow 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      ExitCodes.HELP
    })
final class ResultsCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  /** Wide enough for a data source and the start of its statement; --wide or --json show all. */
  static final int SOURCE_WIDTH = 60;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Option(
      names = "--wide",
      description = "show sources and targets in full, not cut to " + SOURCE_WIDTH + " characters")
  boolean wide;

  @Option(
      names = {"-f", "--follow"},
      description = "print each new checkpoint of the job's progress file while it runs")
  boolean follow;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    if (follow) {
      follow(out);
    }
    JobResults results = gantry.connect().call(s -> s.getJobResults(jobId));
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.results(results));
      return ExitCodes.OK;
    }
    if (!gantry.quiet) {
      out.println("job " + results.getJobId() + "  " + results.getState().value());
    }
    if (results.getStagedIn().isEmpty() && results.getStagedOut().isEmpty()) {
      out.println("no data staged in or out");
    } else {
      TextTable table =
          new TextTable(
              "DIRECTION", "STEP", "SOURCE", "TARGET", "ROWS", "BYTES", "SECONDS", "CHECKSUM");
      add(table, "in", results.getStagedIn());
      add(table, "out", results.getStagedOut());

      table.print(out);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Until the job has ended: each new checkpoint, then the last one if it came at the end. */
  private void follow(PrintWriter out) throws InterruptedException {
    ServerConnection server = gantry.connect();
    ProgressFollower progress = new ProgressFollower(server, jobId);
    PrintWriter sink = gantry.json ? new PrintWriter(java.io.Writer.nullWriter()) : out;
    boolean printed = false;
    while (true) {
      boolean ended = JobStates.isFinal(server.call(s -> s.getJobStatus(jobId)).getState());
      printed |= progress.printIfChanged(sink);
      if (ended) {
        break;
      }
      Thread.sleep(JobWaiter.POLL_INTERVAL.toMillis());
    }
    if (progress.problem() != null) {
      spec.commandLine().getErr().println("gantry: " + progress.problem());
    } else if (!printed && !gantry.quiet && !gantry.json) {
      out.println("job " + jobId + " published no progress (" + JobProgress.FILE + ")");
    }
  }

  private void add(TextTable table, String direction, List<StagedFile> files) {
    int width = wide ? Integer.MAX_VALUE : SOURCE_WIDTH;
    for (StagedFile f : files) {
      table.row(
          direction,
          f.getStep(),
          TextTable.cut(f.getSource(), width),
          TextTable.cut(f.getTarget(), width),
          f.getRows(),
          f.getBytes(),
          String.format(Locale.ROOT, "%.1f", f.getSeconds()),
          f.getChecksum());
    }
  }
}
