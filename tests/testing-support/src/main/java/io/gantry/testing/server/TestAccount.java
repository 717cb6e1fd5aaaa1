package io.gantry.testing.server;

import java.util.Objects;

/**
 * A user account of a {@link GantryTestServer}, added as an operator adds it ({@code gantry-server
 * user add NAME [--admin] [--os-account ACCOUNT]}, the password on standard input).
 *
 * @param osAccount the OS account the user's jobs run under; null for the server's {@code
 *     jobs.default-os-account}
 */
public record TestAccount(String name, String password, boolean admin, String osAccount) {
  public TestAccount {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(password, "password");
  }

  /** A user with a password of the length the server asks for (12 characters at least). */
  public static TestAccount user(String name) {
    return new TestAccount(name, defaultPassword(name), false, null);
  }

  /** An administrator, with a password as {@link #user(String)}. */
  public static TestAccount admin(String name) {
    return new TestAccount(name, defaultPassword(name), true, null);
  }

  /** This account with its jobs run under {@code account} (see scripts/create-test-accounts). */
  public TestAccount withOsAccount(String account) {
    return new TestAccount(name, password, admin, account);
  }

  public TestAccount withPassword(String newPassword) {
    return new TestAccount(name, newPassword, admin, osAccount);
  }

  /** The password {@link #user(String)} gives {@code name}. */
  public static String defaultPassword(String name) {
    return name + "'s long password";
  }
}
