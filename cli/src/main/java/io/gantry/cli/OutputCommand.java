package io.gantry.cli;

import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry output ID}: a job's standard output (or error) from the beginning. */
@Command(
    name = "output",
    mixinStandardHelpOptions = true,
    description = {
      "Print a job's standard output from the beginning, also while it runs.",
      "With --follow, keep printing as it grows until the job has ended (like tail -f)."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry output 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      "  gantry output --stderr --follow $id",
      ExitCodes.HELP
    })
final class OutputCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Option(names = "--stderr", description = "the standard error instead of the standard output")
  boolean stderr;

  @Option(
      names = {"-f", "--follow"},
      description = "keep printing until the job has ended")
  boolean follow;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    OutputStream stream = stderr ? OutputStream.STDERR : OutputStream.STDOUT;
    ServerConnection server = gantry.connect();
    OutputFollower follower = new OutputFollower(server, jobId, stream);
    // --json collects the text into one document instead of streaming it
    StringWriter collected = gantry.json ? new StringWriter() : null;
    PrintWriter sink = collected == null ? out : new PrintWriter(collected);
    boolean complete = follower.readAvailable(sink);
    while (follow && !complete) {
      Thread.sleep(JobWaiter.POLL_INTERVAL.toMillis());
      complete = follower.readAvailable(sink);
    }
    String note =
        follower.note() != null ? follower.note() : emptyNote(server, stream, follower, complete);
    if (note != null && collected == null) {
      spec.commandLine().getErr().println("gantry: " + note);
    }
    if (collected != null) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobId", jobId);
      json.put("stream", stream.value());
      json.put("bytes", follower.offset());
      json.put("complete", complete);
      json.put("text", collected.toString());
      if (note != null) {
        json.put("note", note);
      }
      JsonOutput.print(out, json);
    }
    return ExitCodes.OK;
  }

  /**
   * Why nothing was printed, when a job succeeded without writing to its standard output: programs
   * such as mcvar write their results to files, which an empty output does not tell a new user. (A
   * failed job's story is its standard error; an empty standard error is the usual case.)
   */
  private String emptyNote(
      ServerConnection server, OutputStream stream, OutputFollower follower, boolean complete) {
    if (!complete || follower.offset() > 0 || stream != OutputStream.STDOUT) {
      return null;
    }
    if (server.call(s -> s.getJobStatus(jobId)).getState() != JobState.SUCCEEDED) {
      return null;
    }
    return "job "
        + jobId
        + " wrote nothing to its standard output; its results are files: 'gantry files "
        + jobId
        + "' lists its job directory, 'gantry get "
        + jobId
        + " PATH' fetches one, 'gantry results "
        + jobId
        + "' shows what was staged out";
  }
}
