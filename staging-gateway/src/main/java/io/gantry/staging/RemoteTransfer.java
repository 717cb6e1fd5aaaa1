package io.gantry.staging;

import java.util.Objects;

/**
 * One {@code SCPDataStaging} element: copy a file between a remote host and the job directory.
 *
 * @param arrangingOrder transfers run one after another, in ascending order
 * @param direction {@code TRANSMIT}: remote to job directory; {@code RECEIVE}: job directory to
 *     remote
 * @param protocol scp or sftp
 * @param host remote host name
 * @param port remote port (22 by default)
 * @param user remote user id
 * @param sourceFileName remote path (transmit) or job-relative path (receive)
 * @param targetFileName job-relative path (transmit) or remote path (receive)
 * @param compress compress on the fly into blocked gzip
 * @param credential what the {@link CredentialResolver} resolves the login from: the name of an SSH
 *     identity in the server's configuration ({@code IdentityRef}), or an encrypted password token
 *     ({@code RemotePassword}); null to let the resolver decide by host and user. Never a
 *     clear-text secret.
 * @param cache when a transmitted file may come from the stage-in cache ({@code CacheValidity} of
 *     the {@code SCPDataStaging}; its key query is ignored: the remote file's size and modification
 *     time are the key); null: never cached
 */
public record RemoteTransfer(
    int arrangingOrder,
    Direction direction,
    Protocol protocol,
    String host,
    int port,
    String user,
    String sourceFileName,
    String targetFileName,
    boolean compress,
    String credential,
    CacheRule cache) {

  /** JSDL {@code Direction}. */
  public enum Direction {
    TRANSMIT,
    RECEIVE;

    public static Direction fromJsdl(String value) {
      return Direction.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
    }
  }

  public enum Protocol {
    SCP,
    SFTP
  }

  public RemoteTransfer {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(protocol, "protocol");
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("RemoteHostName must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("remote port must be 1..65535, not " + port);
    }
    if (user == null || user.isBlank()) {
      throw new IllegalArgumentException("RemoteUserId must not be empty");
    }
    if (sourceFileName == null
        || sourceFileName.isBlank()
        || targetFileName == null
        || targetFileName.isBlank()) {
      throw new IllegalArgumentException("SourceFileName and TargetFileName must not be empty");
    }
  }

  /** A transfer that is never cached. */
  public RemoteTransfer(
      int arrangingOrder,
      Direction direction,
      Protocol protocol,
      String host,
      int port,
      String user,
      String sourceFileName,
      String targetFileName,
      boolean compress,
      String credential) {
    this(
        arrangingOrder,
        direction,
        protocol,
        host,
        port,
        user,
        sourceFileName,
        targetFileName,
        compress,
        credential,
        null);
  }

  /** A transfer whose login the resolver finds by host and user alone. */
  public RemoteTransfer(
      int arrangingOrder,
      Direction direction,
      Protocol protocol,
      String host,
      int port,
      String user,
      String sourceFileName,
      String targetFileName,
      boolean compress) {
    this(
        arrangingOrder,
        direction,
        protocol,
        host,
        port,
        user,
        sourceFileName,
        targetFileName,
        compress,
        null);
  }

  /** The remote side as {@code user@host:port:path}, for messages and the manifest. */
  public String remoteDescription() {
    String path = direction == Direction.TRANSMIT ? sourceFileName : targetFileName;
    return protocol.name().toLowerCase(java.util.Locale.ROOT)
        + "://"
        + user
        + "@"
        + host
        + ":"
        + port
        + path;
  }

  public String label() {
    return (direction == Direction.TRANSMIT ? "transmit " : "receive ")
        + remoteDescription()
        + " (order "
        + arrangingOrder
        + ")";
  }
}
