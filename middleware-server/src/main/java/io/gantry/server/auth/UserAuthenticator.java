package io.gantry.server.auth;

import io.gantry.server.internal.jobstore.UserAccounts;
import io.gantry.server.internal.metrics.ServerMetrics;
import io.gantry.server.internal.security.AccessTokens;
import io.gantry.server.internal.security.Directory;
import io.gantry.server.internal.security.LoginThrottle;
import io.gantry.server.internal.security.PasswordHasher;
import io.gantry.server.internal.security.SessionTokenAuthenticator;
import io.gantry.server.internal.security.VerifiedLogins;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a user name and password against the user accounts: the one place where HTTP Basic and
 * WS-Security UsernameToken logins are decided.
 *
 * <ol>
 *   <li>An unknown name costs the same hash computation as a known one, so the time a failure takes
 *       does not tell whether the user exists.
 *   <li>A failure is logged with the name and the remote address, never with the password.
 *   <li>Repeated failures make the name and address wait ({@link LoginThrottle}); an attempt made
 *       while waiting fails without being checked.
 *   <li>A login that passed the slow check is remembered for a minute ({@link VerifiedLogins}), so
 *       that a client polling with HTTP Basic does not pay PBKDF2 on every call.
 *   <li>With a {@link Directory} (LDAP, Active Directory), a name that is not a local account is
 *       the directory's: its password is checked by a bind, its role and OS account are the
 *       directory's, and the job store's row is brought up to date on each login and each call
 *       ({@link #find}), so a user the directory removed or disabled is refused at the next call. A
 *       local account of the same name wins (the administrator's way in when the directory is
 *       down).
 * </ol>
 */
public final class UserAuthenticator {
  private static final Logger log = LoggerFactory.getLogger(UserAuthenticator.class);
  private final UserAccounts accounts;
  private final PasswordHasher hasher = new PasswordHasher();
  private final LoginThrottle throttle;
  private final Optional<SessionTokenAuthenticator> sessionTokens;
  private final VerifiedLogins verified;

  /**
   * What the job store keeps as the password hash of a user the directory owns: no hash, so that no
   * password matches it locally ({@link PasswordHasher#verify} refuses anything but its own form).
   */
  public static final String DIRECTORY_ACCOUNT = "directory";

  private volatile Optional<Directory> directory = Optional.empty();
  private volatile Optional<AccessTokens> accessTokens = Optional.empty();

  /** Refused logins, counted here where each is decided (docs/operations.md). */
  private volatile ServerMetrics metrics = new ServerMetrics();

  /** Counts refused logins in {@code metrics} from now on. */
  public void countFailuresIn(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  public UserAuthenticator(UserAccounts accounts) {
    this(accounts, new LoginThrottle(LoginThrottle.DEFAULT_FREE_FAILURES));
  }

  public UserAuthenticator(UserAccounts accounts, LoginThrottle throttle) {
    this(accounts, throttle, Optional.empty());
  }

  /** With {@code sessionTokens}, clients may also authenticate with a session token. */
  public UserAuthenticator(
      UserAccounts accounts,
      LoginThrottle throttle,
      Optional<SessionTokenAuthenticator> sessionTokens) {
    this(accounts, throttle, sessionTokens, Clock.systemUTC());
  }

  /** With the clock {@link VerifiedLogins} measures its minute by (tests move it). */
  public UserAuthenticator(
      UserAccounts accounts,
      LoginThrottle throttle,
      Optional<SessionTokenAuthenticator> sessionTokens,
      Clock clock) {
    this.accounts = accounts;
    this.throttle = throttle;
    this.sessionTokens = sessionTokens;
    this.verified = new VerifiedLogins(clock);
  }

  /** From now on, names that are not local accounts are looked up in {@code directory}. */
  public void useDirectory(Directory directory) {
    this.directory = Optional.of(directory);
  }

  /** From now on, the identity provider's access tokens are accepted as bearer tokens. */
  public void acceptAccessTokens(AccessTokens tokens) {
    this.accessTokens = Optional.of(tokens);
  }

  /** The identity provider's access tokens, when they are accepted. */
  public Optional<AccessTokens> accessTokens() {
    return accessTokens;
  }

  /** The session tokens accepted beside passwords, when the server issues them. */
  public Optional<SessionTokenAuthenticator> sessionTokens() {
    return sessionTokens;
  }

  /**
   * How long {@code name} from {@code remoteAddress} must wait before the next login attempt
   * counts, after repeated failures; zero when it may try now. Lets a face of the server say so
   * (HTTP 429) instead of "wrong password".
   */
  public Duration waitBeforeLogin(String name, String remoteAddress) {
    return throttle.waitBefore(name, remoteAddress);
  }

  /** The account, if {@code password} is its password; clears {@code password}. */
  public Optional<UserAccount> authenticate(String name, char[] password, String remoteAddress) {
    try {
      if (!throttle.waitBefore(name, remoteAddress).isZero()) {
        metrics.loginFailed("throttled");
        log.warn(
            "login as '{}' from {} refused unchecked: too many failures",
            printable(name),
            remoteAddress);
        return Optional.empty();
      }
      Optional<UserAccount> account = validName(name) ? accounts.find(name) : Optional.empty();
      Optional<Directory> dir = directory;
      if (dir.isPresent() && validName(name) && directoryOwns(account)) {
        Optional<UserAccount> user = dir.get().authenticate(name, password).map(this::keep);
        if (user.isEmpty()) {
          throttle.failed(name, remoteAddress);
          metrics.loginFailed("password");
          log.warn("failed directory login as '{}' from {}", printable(name), remoteAddress);
          return Optional.empty();
        }
        throttle.succeeded(name, remoteAddress);
        return user;
      }
      boolean ok =
          account.isPresent()
              ? checkPassword(name, account.get().passwordHash(), password)
              : hasher.verifyNobody(password);
      if (!ok) {
        throttle.failed(name, remoteAddress);
        metrics.loginFailed("password");
        log.warn("failed login as '{}' from {}", printable(name), remoteAddress);
        return Optional.empty();
      }
      throttle.succeeded(name, remoteAddress);
      return account;
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  /** The slow check, unless the same password passed it for this stored hash a moment ago. */
  private boolean checkPassword(String name, String storedHash, char[] password) {
    if (verified.remembers(name, storedHash, password)) {
      return true;
    }
    if (!hasher.verify(password, storedHash)) {
      return false;
    }
    verified.remember(name, storedHash, password);
    if (!hasher.isCurrent(storedHash)) {
      upgradeHash(name, storedHash, password);
    }
    return true;
  }

  /**
   * Replaces a hash of an earlier, weaker form by a current one, now that the password is at hand
   * (the only moment it is). Only if the stored hash is still the one verified: an administrator's
   * new password set meanwhile wins. A store that refuses the write leaves the old hash, to be
   * replaced at a later login; the login itself stands.
   */
  private void upgradeHash(String name, String storedHash, char[] password) {
    try {
      if (accounts.replacePasswordHash(name, storedHash, hasher.hash(password))) {
        log.info("password hash of user '{}' replaced by the current form", printable(name));
      }
    } catch (RuntimeException e) {
      log.warn(
          "password hash of user '{}' not replaced by the current form, kept for a later login: {}",
          printable(name),
          e.toString());
    }
  }

  /**
   * The account's current role, for a caller already authenticated: a directory user as the
   * directory has them now (empty once removed or disabled there).
   */
  public Optional<UserAccount> find(String name) {
    if (!validName(name)) {
      return Optional.empty();
    }
    Optional<UserAccount> account = accounts.find(name);
    Optional<Directory> dir = directory;
    if (dir.isPresent() && directoryOwns(account)) {
      return dir.get().lookup(name).map(this::keep);
    }
    return account;
  }

  /** A name with no local account, or a row the directory made, is the directory's. */
  private static boolean directoryOwns(Optional<UserAccount> stored) {
    return stored.isEmpty() || DIRECTORY_ACCOUNT.equals(stored.get().passwordHash());
  }

  /**
   * Brings the job store's row of a directory user up to date (made at the first login; role and OS
   * account as the directory says), writing only what changed.
   */
  private UserAccount keep(Directory.DirectoryUser user) {
    UserAccount account = new UserAccount(user.name(), user.role(), DIRECTORY_ACCOUNT);
    Optional<UserAccount> stored = accounts.find(user.name());
    if (stored.isEmpty()) {
      if (accounts.add(account)) {
        log.info("directory user '{}' logged in for the first time", user.name());
      }
    } else if (stored.get().role() != user.role()) {
      accounts.setRole(user.name(), user.role());
    }
    if (!accounts.osAccount(user.name()).equals(user.osAccount())) {
      accounts.setOsAccount(user.name(), user.osAccount().orElse(null));
    }
    return account;
  }

  private static boolean validName(String name) {
    try {
      UserAccount.requireValidName(name);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** A name as sent by a client may hold anything: keep log lines one line. */
  private static String printable(String name) {
    if (name == null) {
      return "";
    }
    String s = name.length() > 64 ? name.substring(0, 64) + "..." : name;
    return s.replaceAll("[^\\x20-\\x7e]", "?");
  }
}
