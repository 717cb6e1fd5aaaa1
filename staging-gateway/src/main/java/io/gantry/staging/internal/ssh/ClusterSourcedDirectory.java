package io.gantry.staging.internal.ssh;

import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.files.OutputFile;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;

/**
 * A directory of this host written as a local job directory, whose {@code gantry-job:} sources are
 * earlier jobs' directories on the cluster ({@link #sibling}, over {@code link}): where the server
 * follows a producer's file on the cluster into its own spill copy of a streamed input, which it
 * then appends to the consumer's file on the cluster (docs/workflows.md, "Streaming between
 * stages").
 */
public final class ClusterSourcedDirectory implements JobFiles {
  private final JobDirectory local;
  private final ClusterLink link;

  public ClusterSourcedDirectory(JobDirectory local, ClusterLink link) {
    this.local = local;
    this.link = link;
  }

  @Override
  public OutputFile create(String name, String what) throws IOException {
    return local.create(name, what);
  }

  @Override
  public boolean exists(String name, String what) throws IOException {
    return local.exists(name, what);
  }

  @Override
  public SeekableByteChannel openForReading(String name, String what) throws IOException {
    return local.openForReading(name, what);
  }

  @Override
  public boolean delete(String name, String what) throws IOException {
    return local.delete(name, what);
  }

  /** The producer's directory on the cluster, confined as staging's reads there are. */
  @Override
  public JobFiles sibling(String directory) throws IOException {
    return new RemoteJobDirectory(link, directory);
  }

  @Override
  public JobDirectory local() {
    return local;
  }
}
