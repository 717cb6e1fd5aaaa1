package io.gantry.server.config;

import java.nio.file.Path;
import java.util.Set;

/**
 * An SSH login defined in the server's configuration, so job descriptions refer to it by name
 * ({@code IdentityRef}) and carry no secret: a private key file (with an optional passphrase) or a
 * password, each read at the moment of use.
 */
public record SshIdentity(
    String name, Path privateKeyFile, PasswordSource secret, Set<String> allowedUsers) {

  /** Whether {@code user} may use this identity; an empty set allows every user. */
  public boolean allows(String userName) {
    return allowedUsers.isEmpty() || allowedUsers.contains(userName);
  }
}
