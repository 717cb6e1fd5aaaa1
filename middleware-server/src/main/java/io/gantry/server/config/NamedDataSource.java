package io.gantry.server.config;

import java.util.Set;

/**
 * A data source defined in the server's configuration, so job descriptions refer to it by name
 * and carry no secret. The password is never held here: only where to read it from (a file
 * readable by the server's user alone, or an environment variable), read at the moment of use.
 */
public record NamedDataSource(
    String name, String jdbcUrl, String user, PasswordSource password, Set<String> allowedUsers) {

  /** Whether {@code user} may use this data source; an empty set allows every user. */
  public boolean allows(String userName) {
    return allowedUsers.isEmpty() || allowedUsers.contains(userName);
  }
}
