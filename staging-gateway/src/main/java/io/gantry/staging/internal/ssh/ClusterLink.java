package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.internal.steps.AttemptFailure;
import java.util.function.Supplier;

/**
 * The server's one SSH connection to a cluster's login node, shared by every SFTP channel staging
 * opens and every exec channel the launcher opens. Host keys are checked strictly against the
 * configured known_hosts ({@link SshConnector}); the credentials are read at each (re)connection,
 * never kept. A connection that dropped is replaced by the next caller, so a retried step starts on
 * a fresh one.
 */
public final class ClusterLink implements AutoCloseable {
  /**
   * SFTP requests a channel keeps in flight (JSch's default is 16): a stream to the cluster waits
   * for acknowledgements only when this many 32 KiB writes are unanswered.
   */
  private static final int BULK_REQUESTS = 64;

  private final SshConnector.Endpoint endpoint;
  private final Supplier<SshCredentials> credentials;
  private final GatewayOptions options;
  private Session session;
  private boolean closed;

  public ClusterLink(
      String user,
      String host,
      int port,
      Supplier<SshCredentials> credentials,
      GatewayOptions options) {
    this.endpoint = new SshConnector.Endpoint(user, host, port);
    this.credentials = credentials;
    this.options = options;
  }

  /** "user@host:port", for messages and manifests. */
  public String describe() {
    return endpoint.user() + "@" + endpoint.host() + ":" + endpoint.port();
  }

  public String user() {
    return endpoint.user();
  }

  /** The connected session, connecting (again) if there is none or it dropped. */
  public synchronized Session session() throws AttemptFailure {
    if (closed) {
      throw TransferFailure.permanent("the connection to the cluster is closed", null);
    }
    if (session == null || !session.isConnected()) {
      session = new SshConnector(options).open(endpoint, credentials.get());
    }
    return session;
  }

  /** A new SFTP channel on the shared session. */
  public ChannelSftp sftp() throws AttemptFailure {
    Session s = session();
    try {
      ChannelSftp sftp = (ChannelSftp) s.openChannel("sftp");
      sftp.connect((int) options.connectTimeout().toMillis());
      sftp.setBulkRequests(BULK_REQUESTS);
      return sftp;
    } catch (JSchException e) {
      throw TransferFailure.retryable(
          "cannot open an sftp channel to " + describe() + ": " + e.getMessage(), e);
    }
  }

  /** Drops the connection (a test's broken link, or a stuck one): the next caller reconnects. */
  public synchronized void disconnect() {
    if (session != null) {
      session.disconnect();
      session = null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    disconnect();
  }
}
