package io.gantry.server.internal.security;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.jobstore.SessionTokens;
import io.gantry.server.internal.jobstore.SessionTokens.StoredToken;
import io.gantry.server.internal.jobstore.UserAccounts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Session tokens: issued to a user who logged in with their password, then accepted instead of it
 * until they expire or are revoked. A token is 256 random bits, so checking it needs only a SHA-256
 * lookup, not the slow password hash a password check costs (the point: a command-line call should
 * not wait a quarter of a second for PBKDF2).
 *
 * <ol>
 *   <li>The secret is shown once, to the caller it was issued to; the store keeps its SHA-256.
 *   <li>A token stops working when it expires, when it is revoked (by its user or an
 *       administrator), when its user is removed (the store's foreign key), and when the user's
 *       password changes (the token carries a SHA-256 of the password hash it was issued under).
 *   <li>Tokens are 256 bits from {@link SecureRandom}: guessing is hopeless, so a wrong token is
 *       not throttled like a wrong password, only logged (by its hash prefix, never the secret).
 * </ol>
 */
public final class SessionTokenAuthenticator {
  /** Every secret starts so, so that secret scanners and people recognise one. */
  public static final String PREFIX = "gantry_st_";

  /** The servlet authentication type of a request that carried a session token. */
  public static final String AUTH_TYPE = "SESSION_TOKEN";

  private static final Pattern SECRET =
      Pattern.compile(Pattern.quote(PREFIX) + "[A-Za-z0-9_-]{43}");
  private final SessionTokens tokens;
  private final UserAccounts accounts;
  private final Duration lifetime;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public SessionTokenAuthenticator(
      SessionTokens tokens, UserAccounts accounts, Duration lifetime, Clock clock) {
    this.tokens = tokens;
    this.accounts = accounts;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  /** A token just issued: its secret (shown once) and what is stored. */
  public record Issued(String secret, StoredToken token) {}

  /** The outcome of checking a secret: the account, or why it was refused. */
  public record Check(Optional<UserAccount> account, String refusal) {
    static Check refused(String why) {
      return new Check(Optional.empty(), why);
    }
  }

  /** A new token for the user {@code name}; empty when there is no such user (any more). */
  public Optional<Issued> issue(String name, String description) {
    return accounts.find(name).map(account -> issue(account, description));
  }

  /** A new token for {@code account}, valid for the configured lifetime. */
  public Issued issue(UserAccount account, String description) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    byte[] id = new byte[8];
    random.nextBytes(id);
    Instant now = clock.instant();
    StoredToken token =
        new StoredToken(
            HexFormat.of().formatHex(id),
            account.name(),
            SessionTokens.passwordStamp(account.passwordHash()),
            description == null || description.isBlank() ? null : clip(description.strip()),
            now,
            now.plus(lifetime));
    tokens.add(token, sha256(secret));
    return new Issued(secret, token);
  }

  /** Whether {@code secret} is a live token, and whose. */
  public Check check(String secret) {
    if (secret == null || !SECRET.matcher(secret).matches()) {
      return Check.refused("not a Gantry session token");
    }
    Optional<StoredToken> stored = tokens.findByHash(sha256(secret));
    if (stored.isEmpty()) {
      return Check.refused("the session token was revoked or is unknown");
    }
    StoredToken token = stored.get();
    if (!clock.instant().isBefore(token.expires())) {
      return Check.refused("the session token expired at " + token.expires());
    }
    Optional<UserAccount> account = accounts.find(token.user());
    if (account.isEmpty()) {
      return Check.refused("the session token's user no longer exists");
    }
    if (!MessageDigest.isEqual(
        SessionTokens.passwordStamp(account.get().passwordHash())
            .getBytes(StandardCharsets.US_ASCII),
        token.passwordStamp().getBytes(StandardCharsets.US_ASCII))) {
      return Check.refused("the password changed after the session token was issued");
    }
    return new Check(account, null);
  }

  /** The live tokens of {@code user}, or of everyone for null. */
  public List<StoredToken> list(String user) {
    return tokens.list(user, clock.instant());
  }

  /** Revokes the token {@code id} if {@code user} owns it (null: an administrator, any). */
  public boolean revoke(String id, String user) {
    return tokens.remove(id, user);
  }

  /** The identity of a token for logs: the first 12 hex digits of its hash, never the secret. */
  public static String logName(String secret) {
    return secret == null ? "-" : sha256(secret).substring(0, 12);
  }

  private static String clip(String text) {
    String oneLine = text.replaceAll("[^\\x20-\\x7e]", "?");
    return oneLine.length() > 200 ? oneLine.substring(0, 200) : oneLine;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
