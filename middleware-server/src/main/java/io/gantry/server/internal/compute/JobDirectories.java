package io.gantry.server.internal.compute;

import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.ClusterConnection;
import io.gantry.staging.Manifest;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import io.gantry.staging.StagedName;
import io.gantry.staging.StagingException;
import io.gantry.staging.StagingGateway;
import io.gantry.staging.StagingListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a backend's job directories lie: on this host, or on a cluster's file system reached over
 * SFTP. Staging goes through here so that the pipeline never asks which.
 */
public interface JobDirectories {

  /** The root under which each job gets its directory. */
  Path root();

  /**
   * Creates the job's directory empty and private (the server's until the program starts): a
   * stage-in that runs again starts from nothing.
   */
  void recreate(Path jobDirectory) throws JobFailure;

  Manifest stageIn(
      StagingGateway gateway, StageInPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException;

  Manifest stageOut(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException;

  List<StagedName> deleteOnTermination(StagingGateway gateway, StageOutPlan plan, Path jobDirectory)
      throws StagingException;

  /**
   * The directory of this host under which the server keeps its spill copies of streamed inputs
   * (docs/workflows.md, "Streaming between stages"): the server's alone, never a job's.
   */
  Path spillRoot();

  /**
   * Follows {@code plan}'s one streamed transfer into {@code spill}, a directory of this host,
   * reading a {@code gantry-job:} source where job directories lie, as the connection that acts on
   * {@code jobDirectory}.
   */
  Manifest followInto(StagingGateway gateway, StageInPlan plan, Path jobDirectory, Path spill)
      throws StagingException;

  /**
   * The file {@code name} of {@code jobDirectory} that its program follows while the server appends
   * to it, created empty, where the job directory is not on this host (on this host the pump writes
   * its own file); empty when it is.
   */
  default Optional<io.gantry.staging.AppendedFile> createAppended(Path jobDirectory, String name)
      throws java.io.IOException {
    return Optional.empty();
  }

  /**
   * The cluster holding the directories, as the connection that reads each job directory (its
   * account's where jobs log in as their own accounts); empty: they are on this host.
   */
  Optional<Function<Path, ClusterConnection>> cluster();
}
