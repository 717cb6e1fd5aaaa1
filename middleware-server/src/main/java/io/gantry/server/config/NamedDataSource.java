package io.gantry.server.config;

import java.util.Set;

/**
 * A data source defined in the server's configuration, so job descriptions refer to it by name and
 * carry no secret. The password is never held here: only where to read it from (a file readable by
 * the server's user alone, or an environment variable), read at the moment of use.
 *
 * @param user the account stage-out writes with (and stage-in reads with, without a reader)
 * @param reader the account stage-in reads with, or null to use {@code user}: a least-privilege
 *     setup gives it SELECT only, and {@code user} only INSERT/UPDATE on the result tables
 * @param maxStatements the most statements staging runs on it at once, over all jobs and both
 *     accounts ({@code datasource.NAME.max-statements}); 0 for no limit beyond the staging pool
 */
public record NamedDataSource(
    String name,
    String jdbcUrl,
    String user,
    PasswordSource password,
    Set<String> allowedUsers,
    Account reader,
    int maxStatements) {

  /** A database login: user name and where its password is read from. */
  public record Account(String user, PasswordSource password) {}

  public NamedDataSource(
      String name, String jdbcUrl, String user, PasswordSource password, Set<String> allowedUsers) {
    this(name, jdbcUrl, user, password, allowedUsers, null, 0);
  }

  public NamedDataSource(
      String name,
      String jdbcUrl,
      String user,
      PasswordSource password,
      Set<String> allowedUsers,
      Account reader) {
    this(name, jdbcUrl, user, password, allowedUsers, reader, 0);
  }

  /** Whether {@code user} may use this data source; an empty set allows every user. */
  public boolean allows(String userName) {
    return allowedUsers.isEmpty() || allowedUsers.contains(userName);
  }
}
