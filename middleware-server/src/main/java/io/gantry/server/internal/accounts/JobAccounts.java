package io.gantry.server.internal.accounts;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.OsAccounts;
import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.jobstore.UserAccounts;
import io.gantry.server.internal.scheduler.JobFailure;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which OS account a Gantry user's jobs run under: the one mapped to the user ({@code gantry-server
 * user add NAME --os-account ACCOUNT}), else {@code jobs.default-os-account}. The account is looked
 * up on the host (through NSS: {@link OsAccounts}) when it is needed, at validation and again at
 * launch, and refused if it is root, in group 0, or the account the server itself runs as: a job
 * must never be able to act as the server.
 *
 * <p>A lookup found is kept for {@link #LOOKUP_KEPT} ({@link AccountLookups}): each lookup starts
 * two programs ({@code getent}, {@code id}), and four per job (submission and launch) were the
 * largest part of a trivial job's launch and a third of a submission's time (JFR). The checks above
 * are made on every use, a failed lookup is never kept, and which account a user maps to is read
 * from the store every time; only the host's answer for an account name is reused, for a few
 * seconds, as the C library's own caches (nscd, sssd) keep it for minutes.
 */
public final class JobAccounts {
  private final Function<String, Optional<String>> mapping;
  private final String defaultAccount;
  private final int serverUid;
  private final AccountLookups lookups = new AccountLookups(LOOKUP_KEPT, OsAccounts::lookup);

  /** How long the host's answer for an account name is reused. */
  static final java.time.Duration LOOKUP_KEPT = java.time.Duration.ofSeconds(5);

  /**
   * @param mapping the OS account mapped to a user name, if any
   * @param defaultAccount the account of users without a mapping
   * @param serverUid the uid this server runs as
   */
  public JobAccounts(
      Function<String, Optional<String>> mapping, String defaultAccount, int serverUid) {
    this.mapping = mapping;
    this.defaultAccount = defaultAccount;
    this.serverUid = serverUid;
  }

  /** The accounts of the job store's users, with the server's default. */
  public static JobAccounts of(UserAccounts users, String defaultAccount) {
    return new JobAccounts(users::osAccount, defaultAccount, OsAccounts.serverUid());
  }

  /**
   * The looked-up account {@code owner}'s jobs run under.
   *
   * @throws JobFailure saying which account is wrong and how, naming the setting or the command
   */
  public JobAccount accountOf(String owner) throws JobFailure {
    if (UserAccount.removed(owner)) {
      // its id belongs to no user now: it runs under no account, not even the default one
      throw new JobFailure(
          "the job's user was removed ("
              + owner
              + "); a removed user's jobs are kept for the audit trail but never run");
    }
    Optional<String> mapped = mapping.apply(owner);
    String name = mapped.orElse(defaultAccount);
    String source =
        mapped.isPresent()
            ? "the OS account of user " + owner
            : "jobs.default-os-account (user " + owner + " has no OS account of their own)";
    try {
      return check(lookups.lookup(name), serverUid);
    } catch (IllegalArgumentException e) {
      throw new JobFailure(source + " cannot run jobs: " + e.getMessage());
    }
  }

  /** Refuses the server's own account; root and group 0 are refused by {@link JobAccount}. */
  public static JobAccount check(JobAccount account, int serverUid) {
    if (account.uid() == serverUid) {
      throw new IllegalArgumentException(
          "OS account "
              + account.name()
              + " (uid "
              + account.uid()
              + ") is the account gantry-server runs as; a job must never run as the server");
    }
    return account;
  }
}
