package io.gantry.staging;

import com.jcraft.jsch.Session;
import io.gantry.staging.internal.ssh.ClusterLink;
import io.gantry.staging.internal.ssh.RemoteJobDirectory;
import io.gantry.staging.internal.ssh.RemoteRefusal;
import io.gantry.staging.internal.ssh.RemoteTree;
import io.gantry.staging.internal.steps.AttemptFailure;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.function.Supplier;

/**
 * The server's one SSH connection to a cluster whose shared file system holds the job directories
 * ({@code compute.ssh-host}, {@code compute.root}). Staging streams into and out of it over SFTP
 * ({@link StagingGateway#stageIn(StageInPlan, ClusterConnection, String, StagingListener)}); the
 * launcher runs Slurm's commands over exec channels of the same session ({@link #session()}).
 *
 * <p>Host keys are checked strictly against the gateway's known_hosts file; the credentials are
 * asked of {@code credentials} at each (re)connection. A dropped connection is replaced by the next
 * caller.
 */
public final class ClusterConnection implements AutoCloseable {
  private final ClusterLink link;

  public ClusterConnection(
      String user,
      String host,
      int port,
      Supplier<SshCredentials> credentials,
      GatewayOptions options) {
    this.link = new ClusterLink(user, host, port, credentials, options);
  }

  /** "user@host:port". */
  public String describe() {
    return link.describe();
  }

  /** The cluster account every SFTP operation and every job runs as. */
  public String user() {
    return link.user();
  }

  /** The connected session, for exec channels; connects again if the last one dropped. */
  public Session session() throws IOException {
    try {
      return link.session();
    } catch (AttemptFailure f) {
      throw new IOException(f.getMessage(), f);
    }
  }

  /** A job directory made afresh: removed with its content if there, created empty (0700). */
  public void recreateDirectory(String directory) throws IOException {
    RemoteTree.recreate(link, directory);
  }

  /**
   * A job directory {@code ROOT/ACCOUNT/JOB} made afresh by its account's own connection, inside
   * that account's private directory (made 0700 if absent; refused unless it is the account's and
   * open to no one else).
   */
  public void recreateDirectoryInPrivateParent(String directory) throws IOException {
    RemoteTree.recreateInPrivateParent(link, directory);
  }

  /** Creates a directory of the cluster and its missing parents. */
  public void createDirectories(String directory) throws IOException {
    RemoteTree.createDirectories(link, directory);
  }

  /** Whether anything is at {@code path} on the cluster (a link is not followed). */
  public boolean exists(String path) throws IOException {
    return RemoteTree.exists(link, path);
  }

  /**
   * Opens a file of a job directory on the cluster for the server's readers (job output, result
   * pages): the same confinement as staging's reads (no {@code ..}, no link on the way, a regular
   * file only; see docs/security.md for what SFTP can and cannot promise).
   *
   * @throws java.nio.file.NoSuchFileException when it is not there
   */
  public SeekableByteChannel openJobFile(String jobDirectory, String relativeName)
      throws IOException {
    try {
      return new RemoteJobDirectory(link, jobDirectory).openForReading(relativeName, "file");
    } catch (RemoteRefusal e) {
      throw new JobDirectoryReader.RefusedFileException(relativeName, e.reason());
    }
  }

  /**
   * Creates {@code relativeName}, absent and empty, in a job directory on the cluster, for the
   * server to append a streamed input to while the job's program follows it (docs/workflows.md,
   * "Streaming between stages"): over an SFTP channel of this connection, held until the file is
   * closed; each block is on the cluster's file system before the next is written. The same
   * confinement as staging's writes.
   */
  public AppendedFile createAppendedJobFile(String jobDirectory, String relativeName)
      throws IOException {
    return new RemoteJobDirectory(link, jobDirectory).createAppended(relativeName, "file");
  }

  /** Drops the connection now; the next caller connects again. */
  public void disconnect() {
    link.disconnect();
  }

  ClusterLink link() {
    return link;
  }

  @Override
  public void close() {
    link.close();
  }
}
