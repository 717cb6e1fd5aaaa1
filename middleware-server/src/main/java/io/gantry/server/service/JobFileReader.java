package io.gantry.server.service;

import io.gantry.staging.ClusterConnection;
import io.gantry.staging.JobDirectoryReader;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;

/**
 * Opens a file of a job's directory for the server's readers (getJobOutput, the web pages), where
 * the directory lies: on this host through {@link JobDirectoryReader} (no link followed at any
 * step), or on the cluster of {@code compute.ssh-host} over SFTP ({@link
 * ClusterConnection#openJobFile}, the same refusals with the limits docs/security.md gives). A job
 * directory is on the cluster when it lies under {@code compute.root}; the plan stored with each
 * job fixed where that was.
 */
public final class JobFileReader {
  /** Every job directory on this host. */
  public static final JobFileReader LOCAL = new JobFileReader(null, null);

  private final ClusterConnection cluster;
  private final Path clusterRoot;

  private JobFileReader(ClusterConnection cluster, Path clusterRoot) {
    this.cluster = cluster;
    this.clusterRoot = clusterRoot;
  }

  /** Job directories under {@code root} are read from {@code cluster}, the others here. */
  public static JobFileReader withCluster(ClusterConnection cluster, String root) {
    return new JobFileReader(cluster, Path.of(root));
  }

  /**
   * @throws java.nio.file.NoSuchFileException when the file is not there (yet)
   * @throws JobDirectoryReader.RefusedFileException when it is a link or not a regular file
   */
  public SeekableByteChannel open(Path jobDirectory, String relativeName) throws IOException {
    if (cluster != null && jobDirectory.normalize().startsWith(clusterRoot)) {
      // the name is refused here exactly as on this host, before anything is asked of the cluster
      JobDirectoryReader.checkName(relativeName);
      return cluster.openJobFile(jobDirectory.toString(), relativeName);
    }
    return JobDirectoryReader.open(jobDirectory, relativeName);
  }
}
