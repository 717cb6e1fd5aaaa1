package io.gantry.server.internal.compute.backends;

import io.gantry.server.internal.compute.JobDirectories;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.staging.AppendedFile;
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
  private final Path spillRoot;

  /**
   * @param logins each job's own login; null: every directory is {@code cluster}'s
   * @param stagingRoot the server's own staging root, on this host: streamed inputs' spill copies
   */
  ClusterDirectories(
      ClusterConnection cluster, ClusterLogins logins, String root, Path stagingRoot) {
    this.cluster = cluster;
    this.logins = logins;
    this.root = Path.of(root);
    this.spillRoot = stagingRoot.resolve(".gantry-streams");
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

  /**
   * On this host: the server follows the producer's file on the cluster into a spill copy of its
   * own, so that a program that reads slowly never holds the producer's side back, and appends it
   * to the consumer's file on the cluster ({@link #createAppended}).
   */
  @Override
  public Path spillRoot() {
    return spillRoot;
  }

  /** The producer's file read over SFTP as the consumer's account: the same user's job. */
  @Override
  public Manifest followInto(
      StagingGateway gateway, StageInPlan plan, Path jobDirectory, Path spill)
      throws StagingException {
    return gateway.stageInFromCluster(plan, staging(jobDirectory), spill, StagingListener.NONE);
  }

  /** Appended over an SFTP channel of the job directory's connection, as its account. */
  @Override
  public Optional<AppendedFile> createAppended(Path jobDirectory, String name) throws IOException {
    return Optional.of(of(jobDirectory).createAppendedJobFile(jobDirectory.toString(), name));
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
