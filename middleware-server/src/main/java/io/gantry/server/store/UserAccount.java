package io.gantry.server.store;

import java.util.regex.Pattern;

/**
 * A user of gantry-server: a name (which owns jobs), a role, and the stored password hash (never
 * the password). Names are restricted so that they are safe in logs, file names and the job store's
 * owner column.
 */
public record UserAccount(String name, Role role, String passwordHash) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");

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
