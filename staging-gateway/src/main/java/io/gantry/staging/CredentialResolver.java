package io.gantry.staging;

/**
 * The server's side of secrets: the gateway asks it, at the moment of use, for the connection of a
 * data source and for the login to a remote host. Implementations decrypt JSDL password tokens or
 * look up named data sources; the gateway never writes what they return to a log or a file.
 */
public interface CredentialResolver {
  /**
   * @throws IllegalArgumentException naming the data source when it is unknown or its password
   *     cannot be decrypted
   */
  DataSourceSpec dataSource(DataSourceRef ref);

  /** What a connection is for: stage-in reads, stage-out writes. */
  enum Access {
    READ,
    WRITE
  }

  /**
   * The connection for one purpose, so a server can give stage-in a read-only account and stage-out
   * one that may only write results; by default the same for both.
   */
  default DataSourceSpec dataSource(DataSourceRef ref, Access access) {
    return dataSource(ref);
  }

  /** The login for a transfer's {@code RemoteUserId} at its host. */
  SshCredentials ssh(RemoteTransfer transfer);

  /**
   * The login for a standard DataStaging URI ({@code UsernameToken} or an identity reference), or
   * null to connect anonymously (http without authentication, anonymous ftp).
   *
   * @throws IllegalArgumentException when the credential is unknown or does not decrypt for this
   *     user and destination
   */
  default UriLogin uriLogin(UriTransfer transfer) {
    if (transfer.credential() != null) {
      throw new IllegalArgumentException(
          "this server resolves no credentials for DataStaging URIs");
    }
    return null;
  }
}
