package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry retry-stage-out ID}: the SOAP operation {@code retryStageOut}. */
@Command(
    name = "retry-stage-out",
    mixinStandardHelpOptions = true,
    description = {
      "Run again the stage-out of a job whose program succeeded and whose stage-out failed.",
      "Only the steps that did not commit run again (the stage-out ledger in the target database skips the others, so no row arrives twice); the job goes through STAGING_OUT to SUCCEEDED or FAILED. Other jobs are refused (exit 1)."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  gantry retry-stage-out 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      GantryCommand.EXIT_CODE_HELP
    })
final class RetryStageOutCommand implements Callable<Integer> {
  @ParentCommand GantryCommand gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Override
  public Integer call() {
    JobStatus job = gantry.connect().call(s -> s.retryStageOut(jobId));
    return ChangedJob.print(gantry, spec, job);
  }
}
