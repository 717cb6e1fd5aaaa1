package io.gantry.server.internal.compute.backends;

import io.gantry.server.internal.compute.JobDirectories;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.ClusterConnection;
import io.gantry.staging.Manifest;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StageOutPlan;
import io.gantry.staging.StagedName;
import io.gantry.staging.StagingException;
import io.gantry.staging.StagingGateway;
import io.gantry.staging.StagingListener;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Job directories under {@code compute.root} on a cluster's shared file system: stage-in and
 * stage-out stream over the cluster connection's SFTP channels, and nothing of a job is written on
 * this host.
 */
final class ClusterDirectories implements JobDirectories {
  private final ClusterConnection cluster;
  private final Path root;

  ClusterDirectories(ClusterConnection cluster, String root) {
    this.cluster = cluster;
    this.root = Path.of(root);
  }

  @Override
  public Path root() {
    return root;
  }

  @Override
  public void recreate(Path jobDirectory) throws JobFailure {
    String dir = jobDirectory.toString();
    try {
      cluster.recreateDirectory(dir);
    } catch (IOException e) {
      throw new JobFailure(
          "cannot prepare the job directory "
              + dir
              + " on "
              + cluster.describe()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public Manifest stageIn(
      StagingGateway gateway, StageInPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return gateway.stageIn(plan, cluster, jobDirectory.toString(), listener);
  }

  @Override
  public Manifest stageOut(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return gateway.stageOut(plan, cluster, jobDirectory.toString(), listener);
  }

  @Override
  public List<StagedName> deleteOnTermination(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory) throws StagingException {
    return gateway.deleteOnTermination(plan, cluster, jobDirectory.toString());
  }

  @Override
  public Optional<ClusterConnection> cluster() {
    return Optional.of(cluster);
  }
}
