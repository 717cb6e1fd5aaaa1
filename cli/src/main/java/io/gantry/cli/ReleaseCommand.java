package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry release ID}: the SOAP operation {@code releaseJob}. */
@Command(
    name = "release",
    mixinStandardHelpOptions = true,
    description = {
      "Release a held job",
      " it queues again once the jobs it depends on allow.:A job that is not held is refused (exit 1)."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry release 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5", GantryCommand.EXIT_CODE_HELP})
final class ReleaseCommand implements Callable<Integer> {
  @ParentCommand GantryCommand gantry;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "ID", description = "the job")
  String jobId;

  @Override
  public Integer call() {
    JobStatus job = gantry.connect().call(s -> s.releaseJob(jobId));
    return ChangedJob.print(gantry, spec, job);
  }
}
