package io.gantry.cli;

import io.gantry.cli.soap.JobStateFault;
import io.gantry.cli.soap.JobStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry kill ID}: stops a running job; answers once it has ended. */
@Command(
    name = "kill",
    mixinStandardHelpOptions = true,
    description = {
      "Kill a running job (SIGTERM to its processes, SIGKILL after the "
          + "server's grace period): it ends KILLED.",
      "A job that has not started is withdrawn with 'gantry cancel' (exit 1 here)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry kill 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", GantryCommand.EXIT_CODE_HELP})
final class KillCommand implements Callable<Integer> {
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
                    return s.killJob(jobId);
                  } catch (JobStateFault e) {
                    throw WrongVerb.explain(e, jobId, "cancel", "its program has not started");
                  }
                });
    return ChangedJob.print(gantry, spec, job);
  }
}
