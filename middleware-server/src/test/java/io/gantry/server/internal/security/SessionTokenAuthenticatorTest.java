package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session tokens against a real H2 job store: a token works until it expires, is revoked, its user
 * is removed or their password changes; only its hash is stored.
 */
class SessionTokenAuthenticatorTest {
  private static final Duration LIFETIME = Duration.ofHours(12);

  @TempDir Path dir;
  private JdbcJobStore store;
  private MovableClock clock;
  private SessionTokenAuthenticator tokens;
  private final PasswordHasher hasher = new PasswordHasher();

  /** A clock the test moves: expiry without waiting. */
  private static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-11-25T08:00:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }
  }

  @BeforeEach
  void open() {
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));
    clock = new MovableClock();
    tokens =
        new SessionTokenAuthenticator(store.sessionTokens(), store.userAccounts(), LIFETIME, clock);
    addUser("alice", "alice's password");
    addUser("bob", "bob's password");
  }

  @AfterEach
  void close() {
    store.close();
  }

  private void addUser(String name, String password) {
    store
        .userAccounts()
        .add(new UserAccount(name, UserAccount.Role.USER, hasher.hash(password.toCharArray())));
  }

  private String issue(String user) {
    return tokens.issue(user, "test").orElseThrow().secret();
  }

  @Test
  void anIssuedTokenAuthenticatesItsUserUntilItExpires() {
    String secret = issue("alice");
    assertTrue(secret.startsWith(SessionTokenAuthenticator.PREFIX), secret);
    assertEquals("alice", tokens.check(secret).account().orElseThrow().name());

    clock.advance(LIFETIME.minusSeconds(1));
    assertTrue(tokens.check(secret).account().isPresent());

    clock.advance(Duration.ofSeconds(1));
    SessionTokenAuthenticator.Check expired = tokens.check(secret);
    assertTrue(expired.account().isEmpty());
    assertTrue(expired.refusal().contains("expired"), expired.refusal());
    assertEquals(List.of(), tokens.list("alice"), "an expired token is not listed");
  }

  @Test
  void aRevokedTokenIsRefusedAndOnlyItsOwnerOrAnAdministratorRevokesIt() {
    String secret = issue("alice");
    String id = tokens.list("alice").get(0).id();

    assertFalse(tokens.revoke(id, "bob"), "bob may not revoke alice's token");
    assertTrue(tokens.check(secret).account().isPresent());

    assertTrue(tokens.revoke(id, "alice"));
    assertTrue(tokens.check(secret).account().isEmpty());
    assertFalse(tokens.revoke(id, null), "gone already");

    String another = issue("alice");
    assertTrue(tokens.revoke(tokens.list(null).get(0).id(), null), "an administrator revokes any");
    assertTrue(tokens.check(another).account().isEmpty());
  }

  @Test
  void aChangedPasswordEndsTheTokensIssuedBefore() {
    String before = issue("alice");
    store.userAccounts().changePassword("alice", hasher.hash("a new one".toCharArray()));

    SessionTokenAuthenticator.Check check = tokens.check(before);
    assertTrue(check.account().isEmpty());
    assertTrue(check.refusal().contains("password changed"), check.refusal());
    assertTrue(tokens.check(issue("alice")).account().isPresent(), "a new token works");
  }

  @Test
  void aRemovedUsersTokensStopWorkingAndAreGone() {
    String secret = issue("bob");
    store.userAccounts().remove("bob");

    assertTrue(tokens.check(secret).account().isEmpty());
    assertEquals(List.of(), tokens.list("bob"));
    addUser("bob", "bob's password"); // the same name again is someone new
    assertTrue(tokens.check(secret).account().isEmpty());
  }

  @Test
  void aForgedOrMalformedTokenIsRefused() {
    issue("alice");
    for (String forged :
        List.of(
            "",
            "gantry_st_",
            SessionTokenAuthenticator.PREFIX + "A".repeat(43),
            "Basic YWxpY2U6cGFzc3dvcmQ=",
            SessionTokenAuthenticator.PREFIX + "A".repeat(42) + "\n")) {
      assertTrue(tokens.check(forged).account().isEmpty(), forged);
    }
  }

  @Test
  void theStoreKeepsNoSecretOnlyItsHash() throws Exception {
    String secret = issue("alice");
    store.close();
    String secretPart = secret.substring(SessionTokenAuthenticator.PREFIX.length());
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        assertFalse(content.contains(secretPart), file + " holds the token");
      }
    }
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));
  }
}
