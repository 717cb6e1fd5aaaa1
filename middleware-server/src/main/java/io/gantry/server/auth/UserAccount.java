package io.gantry.server.auth;

import java.util.regex.Pattern;

/**
 * A user of gantry-server: a name (which owns jobs), a role, and the stored password hash (never
 * the password). Names are restricted so that they are safe in logs, file names and the job store's
 * owner column.
 */
public record UserAccount(String name, Role role, String passwordHash) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");

  /**
   * Follows the name at submission where a record's user has been removed (job store V15): a space
   * and parentheses make it no valid user name, so no later user of the name is its owner.
   */
  public static final String REMOVED_SUFFIX = " (removed user)";

  public enum Role {
    USER,
    ADMIN;

    public String value() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Role of(String value) {
      return Role.valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
  }

  public UserAccount {
    requireValidName(name);
  }

  /** Whether a record's owner, as the store reports it, is a removed user. */
  public static boolean removed(String owner) {
    return owner.endsWith(REMOVED_SUFFIX);
  }

  public boolean admin() {
    return role == Role.ADMIN;
  }

  /**
   * Refuses names that are not 1-64 letters, digits, '.', '_', '@' or '-' (starting with a letter
   * or digit).
   */
  public static String requireValidName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "a user name is 1 to 64 letters, digits, '.', '_', '@' or '-',"
              + " starting with a letter or digit");
    }
    return name;
  }
}
