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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Job directories on this host's file system, under the staging root. */
final class HostDirectories implements JobDirectories {
  private final Path root;

  HostDirectories(Path root) {
    this.root = root;
  }

  @Override
  public Path root() {
    return root;
  }

  /**
   * Beside the job directories ({@code .gantry-streams/JOB/N}): not a job id, so retention passes
   * it by.
   */
  @Override
  public Path spillRoot() {
    return root.resolve(".gantry-streams");
  }

  @Override
  public Manifest followInto(
      StagingGateway gateway, StageInPlan plan, Path jobDirectory, Path spill)
      throws StagingException {
    return gateway.stageIn(plan, spill, StagingListener.NONE);
  }

  /** Created empty and private (0700, the server's until launch). */
  @Override
  public void recreate(Path dir) throws JobFailure {
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> paths = Files.walk(dir)) {
          for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
            if (!p.equals(dir)) {
              Files.delete(p);
            }
          }
        }
      }
      JobDirectoryOwner.createPrivate(dir);
    } catch (IOException e) {
      throw new JobFailure("cannot prepare the job directory " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Manifest stageIn(
      StagingGateway gateway, StageInPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return gateway.stageIn(plan, jobDirectory, listener);
  }

  @Override
  public Manifest stageOut(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory, StagingListener listener)
      throws StagingException {
    return gateway.stageOut(plan, jobDirectory, listener);
  }

  @Override
  public List<StagedName> deleteOnTermination(
      StagingGateway gateway, StageOutPlan plan, Path jobDirectory) throws StagingException {
    return gateway.deleteOnTermination(plan, jobDirectory);
  }

  @Override
  public Optional<java.util.function.Function<Path, ClusterConnection>> cluster() {
    return Optional.empty();
  }
}
