package io.gantry.server.internal.security;

import io.gantry.dispatcher.OsAccounts;
import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.accounts.JobAccounts;
import io.gantry.server.internal.jobstore.UserAccounts;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The account rules, in one place for every face that manages users: {@code gantry-server user}
 * (the job store opened by the command) and the administrators' SOAP operations (the running
 * server's store). A user name is a plain word; a password has at least {@link
 * #MIN_PASSWORD_LENGTH} characters and is stored only as a hash; an OS account must exist and be
 * neither root, nor in group 0, nor the server's own; the last administrator cannot be removed or
 * demoted, since nobody could then see every job again short of editing the database.
 */
public final class UserAdministration {
  public static final int MIN_PASSWORD_LENGTH = 12;

  /** One user as listed: {@code osAccount} null when jobs.default-os-account applies. */
  public record Entry(String name, UserAccount.Role role, String osAccount) {}

  private final UserAccounts accounts;

  public UserAdministration(UserAccounts accounts) {
    this.accounts = accounts;
  }

  /** Every user, by name. */
  public List<Entry> list() {
    Map<String, String> os = accounts.osAccounts();
    return accounts.list().stream()
        .map(a -> new Entry(a.name(), a.role(), os.get(a.name())))
        .toList();
  }

  /** The user, if there is one. */
  public java.util.Optional<Entry> find(String name) {
    return list().stream().filter(e -> e.name().equals(name)).findFirst();
  }

  /**
   * Adds a user; {@code password} is wiped whatever happens.
   *
   * @param osAccount the OS account the user's jobs run under, or null for the default
   */
  public Entry add(String name, UserAccount.Role role, String osAccount, char[] password)
      throws AccountRuleException {
    try {
      requireValidName(name);
      if (osAccount != null) {
        requireUsableOsAccount(osAccount);
      }
      if (accounts.find(name).isPresent()) {
        throw new AccountRuleException(
            AccountRuleException.Kind.EXISTS, "user " + name + " exists already");
      }
      requireStrong(password);
      if (!accounts.add(new UserAccount(name, role, hash(password)))) {
        throw new AccountRuleException(
            AccountRuleException.Kind.EXISTS, "user " + name + " exists already");
      }
    } finally {
      Arrays.fill(password, '\0');
    }
    if (osAccount != null) {
      accounts.setOsAccount(name, osAccount);
    }
    return new Entry(name, role, osAccount);
  }

  /** Replaces the user's password; {@code password} is wiped whatever happens. */
  public void setPassword(String name, char[] password) throws AccountRuleException {
    try {
      requireExisting(name);
      requireStrong(password);
      if (!accounts.changePassword(name, hash(password))) {
        throw notFound(name);
      }
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /** Makes the user an administrator or a plain user. */
  public Entry setRole(String name, UserAccount.Role role) throws AccountRuleException {
    Entry before = requireExisting(name);
    if (role != UserAccount.Role.ADMIN && isLastAdministrator(name)) {
      throw lastAdministrator(name);
    }
    if (!accounts.setRole(name, role)) {
      throw notFound(name);
    }
    return new Entry(name, role, before.osAccount());
  }

  /** Maps the user's jobs to {@code osAccount}, or back to the default with null. */
  public Entry setOsAccount(String name, String osAccount) throws AccountRuleException {
    if (osAccount != null) {
      requireUsableOsAccount(osAccount);
    }
    Entry before = requireExisting(name);
    if (!accounts.setOsAccount(name, osAccount)) {
      throw notFound(name);
    }
    return new Entry(name, before.role(), osAccount);
  }

  /** Removes the user; their jobs stay, visible to administrators. */
  public void remove(String name) throws AccountRuleException {
    if (isLastAdministrator(name)) {
      throw lastAdministrator(name);
    }
    if (!accounts.remove(name)) {
      throw notFound(name);
    }
  }

  private boolean isLastAdministrator(String name) {
    List<UserAccount> admins = accounts.list().stream().filter(UserAccount::admin).toList();
    return admins.size() == 1 && admins.get(0).name().equals(name);
  }

  private Entry requireExisting(String name) throws AccountRuleException {
    return find(name).orElseThrow(() -> notFound(name));
  }

  private static void requireValidName(String name) throws AccountRuleException {
    try {
      UserAccount.requireValidName(name);
    } catch (IllegalArgumentException e) {
      throw new AccountRuleException(AccountRuleException.Kind.INVALID, e.getMessage());
    }
  }

  /** Exists, and is neither root, nor in group 0, nor the account the server runs as. */
  private static void requireUsableOsAccount(String osAccount) throws AccountRuleException {
    try {
      JobAccounts.check(OsAccounts.lookup(osAccount), OsAccounts.serverUid());
    } catch (IllegalArgumentException e) {
      throw new AccountRuleException(AccountRuleException.Kind.INVALID, e.getMessage());
    }
  }

  private static void requireStrong(char[] password) throws AccountRuleException {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new AccountRuleException(
          AccountRuleException.Kind.INVALID,
          "a password needs at least " + MIN_PASSWORD_LENGTH + " characters");
    }
  }

  private static String hash(char[] password) {
    return new PasswordHasher().hash(password);
  }

  private static AccountRuleException notFound(String name) {
    return new AccountRuleException(AccountRuleException.Kind.NOT_FOUND, "no user " + name);
  }

  private static AccountRuleException lastAdministrator(String name) {
    return new AccountRuleException(
        AccountRuleException.Kind.LAST_ADMINISTRATOR,
        name + " is the last administrator; add another first");
  }
}
