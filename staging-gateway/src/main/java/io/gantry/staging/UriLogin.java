package io.gantry.staging;

import java.util.Objects;

/**
 * The login of a {@link UriTransfer}: a user name and its credentials (a password, or for scp and
 * sftp also a private key). Filled by the server's {@link CredentialResolver}; never printed.
 */
public record UriLogin(String user, SshCredentials credentials) {
  public UriLogin {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(credentials, "credentials");
  }

  @Override
  public String toString() {
    return "UriLogin[" + user + ", " + credentials.method() + "]";
  }
}
