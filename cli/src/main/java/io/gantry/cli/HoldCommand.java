package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry hold ID}: the SOAP operation {@code holdJob}. */
@Command(
    name = "hold",
    mixinStandardHelpOptions = true,
    description = {
      "Hold a QUEUED job whose stage-in has not begun",
      " it waits, holding no slot and staging nothing, until 'gantry release ID'.:A job whose stage-in has begun cannot be held (exit 1); cancel it instead."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry hold 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", GantryCommand.EXIT_CODE_HELP})
final class HoldCommand implements Callable<Integer> {
  @ParentCommand GantryCommand gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Override
  public Integer call() {
    JobStatus job = gantry.connect().call(s -> s.holdJob(jobId));
    return ChangedJob.print(gantry, spec, job);
  }
}
