package io.gantry.server.internal.security;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.jobstore.UserAccounts;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The administrator a server with authentication creates when it has no users yet, so that a fresh
 * installation can be used (and more users added) at once. Its password is taken from the
 * configuration ({@code admin.password-file} or {@code admin.password-env}), or generated and
 * printed once on standard output: never written to the log or anywhere else.
 */
public final class FirstAdmin {
  public static final String NAME = "admin";
  private static final Logger log = LoggerFactory.getLogger(FirstAdmin.class);
  private final UserAccounts accounts;
  private final PasswordSource configured;

  public FirstAdmin(UserAccounts accounts, PasswordSource configured) {
    this.accounts = accounts;
    this.configured = configured;
  }

  /** Creates the administrator if the store has no users; true if it did. */
  public boolean createIfNoUsers() {
    if (!accounts.isEmpty()) {
      return false;
    }
    boolean generated = configured instanceof PasswordSource.None;
    char[] password = generated ? PasswordHasher.randomPassword() : configured.read();
    try {
      if (password.length == 0) {
        throw new IllegalStateException("the configured admin password is empty");
      }
      accounts.add(
          new UserAccount(NAME, UserAccount.Role.ADMIN, new PasswordHasher().hash(password)));
      log.info("created administrator '{}' (first start with authentication)", NAME);
      if (generated) {
        System.out.println(
            "Created administrator '"
                + NAME
                + "' with password "
                + new String(password)
                + "  (shown only this once; change it with: gantry-server user passwd "
                + NAME
                + ")");
        System.out.flush();
      }
      return true;
    } finally {
      Arrays.fill(password, '\0');
    }
  }
}
