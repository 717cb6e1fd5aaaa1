package io.gantry.server.internal.plan;

import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.slurm.BatchResources;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.scheduler.JobPlan;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import java.nio.file.Path;

/**
 * A job as the server will carry it out: what to stage in, what to run, what to stage out, all
 * inside one job directory on the compute file system; {@code batch} is what a batch system (Slurm)
 * is asked for beyond the launch spec. {@code launch} is null for a job that only stages data (JSDL
 * without Application). {@code farm} is the task farm the launch spec's launchers serve, or null
 * for a job that runs its program once. {@code requestedClass} is the priority class the job's
 * {@code gx:Queue} names, or null (the default class). {@code streams} are the stage-ins of {@code
 * stageIn} that its program reads as they arrive ({@code gx:Stream}).
 */
public record JsdlJobPlan(
    JobId jobId,
    String owner,
    Path jobDirectory,
    StageInPlan stageIn,
    LaunchSpec launch,
    StageOutPlan stageOut,
    BatchResources batch,
    io.gantry.jsdl.farm.TaskFarmSpec farm,
    String requestedClass,
    java.util.List<StreamedInput> streams)
    implements JobPlan {

  public JsdlJobPlan {
    streams = streams == null ? java.util.List.of() : java.util.List.copyOf(streams);
  }

  /** A job that is not a task farm. */
  public JsdlJobPlan(
      JobId jobId,
      String owner,
      Path jobDirectory,
      StageInPlan stageIn,
      LaunchSpec launch,
      StageOutPlan stageOut,
      BatchResources batch) {
    this(jobId, owner, jobDirectory, stageIn, launch, stageOut, batch, null, null, null);
  }

  @Override
  public java.util.Optional<String> queueClass() {
    return java.util.Optional.ofNullable(requestedClass);
  }

  @Override
  public int slots() {
    return launch == null ? 0 : launch.processes();
  }

  @Override
  public boolean runsProgram() {
    return launch != null;
  }

  @Override
  public boolean stagesIn() {
    return !(stageIn.transfers().isEmpty()
        && stageIn.extracts().isEmpty()
        && stageIn.uriTransfers().isEmpty());
  }

  @Override
  public boolean stagesOut() {
    return !(stageOut.loads().isEmpty()
        && stageOut.transfers().isEmpty()
        && stageOut.uriTransfers().isEmpty());
  }
}
