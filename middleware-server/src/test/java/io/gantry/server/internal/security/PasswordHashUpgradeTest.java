package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An account whose hash is of the earlier, weaker form (PBKDF2-HMAC-SHA-256 at 210,000 iterations)
 * gets a current hash at its next successful login, and only then.
 */
class PasswordHashUpgradeTest {
  private final PasswordHasher hasher = new PasswordHasher();

  private static UserAuthenticator authenticator(JdbcJobStore store) {
    return new UserAuthenticator(
        store.userAccounts(),
        new LoginThrottle(LoginThrottle.DEFAULT_FREE_FAILURES),
        Optional.empty(),
        Clock.systemUTC());
  }

  private static String storedHash(JdbcJobStore store, String name) {
    return store.userAccounts().find(name).orElseThrow().passwordHash();
  }

  @Test
  void anEarlierFormHashIsReplacedAtTheNextSuccessfulLoginNotAtAFailedOne(@TempDir Path dir)
      throws Exception {
    String earlier = PasswordHasherTest.earlierFormHash("first password");
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      store.userAccounts().add(new UserAccount("alice", UserAccount.Role.USER, earlier));
      UserAuthenticator auth = authenticator(store);
      SessionTokenAuthenticator tokens =
          new SessionTokenAuthenticator(
              store.sessionTokens(), store.userAccounts(), Duration.ofHours(12), Clock.systemUTC());
      String token = tokens.issue("alice", "before the upgrade").orElseThrow().secret();

      assertFalse(auth.authenticate("alice", "a guess".toCharArray(), "127.0.0.1").isPresent());
      assertEquals(earlier, storedHash(store, "alice"), "a failed login changes nothing");

      assertTrue(
          auth.authenticate("alice", "first password".toCharArray(), "127.0.0.1").isPresent());
      String now = storedHash(store, "alice");
      assertTrue(now.startsWith("pbkdf2-sha512$210000$"), now);
      assertTrue(hasher.verify("first password".toCharArray(), now));
      assertFalse(hasher.verify("a guess".toCharArray(), now));

      assertTrue(
          tokens.check(token).account().isPresent(),
          "a session opened before the upgrade lives on: the password did not change");

      // a new authenticator (nothing remembered) checks the new hash, and leaves a current one be
      UserAuthenticator afresh = authenticator(store);
      assertTrue(
          afresh.authenticate("alice", "first password".toCharArray(), "127.0.0.1").isPresent());
      assertEquals(now, storedHash(store, "alice"));
    }
  }

  @Test
  void aPasswordSetMeanwhileIsNeverOverwrittenByTheUpgrade(@TempDir Path dir) throws Exception {
    String earlier = PasswordHasherTest.earlierFormHash("first password");
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      store.userAccounts().add(new UserAccount("alice", UserAccount.Role.USER, earlier));
      String set = hasher.hash("the administrator's choice".toCharArray());
      assertTrue(store.userAccounts().changePassword("alice", set));
      assertFalse(
          store
              .userAccounts()
              .replacePasswordHash("alice", earlier, hasher.hash("x".toCharArray())),
          "the hash verified is no longer the stored one");
      assertEquals(set, storedHash(store, "alice"));
      assertFalse(store.userAccounts().replacePasswordHash("bob", earlier, set), "no such user");
    }
  }
}
