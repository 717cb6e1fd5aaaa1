package io.gantry.cli;

import io.gantry.cli.soap.JobStateFault;
import io.gantry.cli.soap.JobStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry cancel ID}: withdraws a job whose program has not started. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description = {
      "Cancel a job that has not started running (QUEUED, STAGING_IN, "
          + "STAGED): it ends CANCELLED.",
      "A running job is stopped with 'gantry kill'; cancelling one is refused (exit 1)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry cancel 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", GantryCommand.EXIT_CODE_HELP})
final class CancelCommand implements Callable<Integer> {
  @ParentCommand GantryCommand gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Override
  public Integer call() {
    JobStatus job =
        gantry
            .connect()
            .call(
                s -> {
                  try {
                    return s.cancelJob(jobId);
                  } catch (JobStateFault e) {
                    throw WrongVerb.explain(e, jobId, "kill", "its program has started");
                  }
                });
    return ChangedJob.print(gantry, spec, job);
  }
}
