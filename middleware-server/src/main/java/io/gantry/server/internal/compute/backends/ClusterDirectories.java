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
import java.util.function.Function;

/**
 * Job directories under {@code compute.root} on a cluster's shared file system: stage-in and
 * stage-out stream over the cluster connection's SFTP channels, and nothing of a job is written on
 * this host. With {@code compute.user-certificates} ({@code logins} not null) each job's directory
 * is {@code compute.root/ACCOUNT/JOB}, made, staged and read over the job's own login as that
 * account ({@link ClusterLogins}).
 */
final class ClusterDirectories implements JobDirectories {
  private final ClusterConnection cluster;
  private final ClusterLogins logins;
  private final Path root;

  /**
   * @param logins each job's own login; null: every directory is {@code cluster}'s
   */
  ClusterDirectories(ClusterConnection cluster, ClusterLogins logins, String root) {
    this.cluster = cluster;
    this.logins = logins;
    this.root = Path.of(root);
  }

  /** The connection that acts on {@code jobDirectory}. */
  private ClusterConnection of(Path jobDirectory) throws IOException {
    return logins == null ? cluster : logins.ofDirectory(jobDirectory);
  }

  private ClusterConnection staging(Path jobDirectory) throws StagingException {
    try {
      return of(jobDirectory);
    } catch (IOException e) {
      throw new StagingException("job directory", e.getMessage(), e);
    }
  }

  @Override
  public Path root() {
    return root;
  }

  @Override
  public void recreate(Path jobDirectory) throws JobFailure {
    String dir = jobDirectory.toString();
    ClusterConnection c = cluster;
    try {
      c = of(jobDirectory);
      if (logins != null && logins.ownAccount(jobDirectory)) {
        c.recreateDirectoryInPrivateParent(dir);
      } else {
        c.recreateDirectory(dir);
      }
    } catch (IOException | RuntimeException e) {
      throw new JobFailure(
          "cannot prepare the job directory " + dir + " on " + c.describe() + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public Manifest stageIn(
      StagingGateway gateway, StageInPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return gateway.stageIn(plan, staging(jobDirectory), jobDirectory.toString(), listener);
  }

  @Override
  public Manifest stageOut(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return gateway.stageOut(plan, staging(jobDirectory), jobDirectory.toString(), listener);
  }

  @Override
  public List<StagedName> deleteOnTermination(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory) throws StagingException {
    try {
      return gateway.deleteOnTermination(plan, staging(jobDirectory), jobDirectory.toString());
    } finally {
      if (logins != null) {
        logins.release(jobDirectory.getFileName().toString()); // the job's last use of its login
      }
    }
  }

  @Override
  public Optional<Function<Path, ClusterConnection>> cluster() {
    return Optional.of(logins == null ? dir -> cluster : logins::reader);
  }
}
