package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A login remembered after the slow check: only for the same name, stored hash and password, only
 * for a minute, and never past a password change or the user's removal.
 */
class VerifiedLoginsTest {
  private static final String HASH = "pbkdf2-sha256$210000$c2FsdA$aGFzaA";

  /** A clock the test moves. */
  private static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-11-25T18:30:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }
  }

  @Test
  void aRememberedLoginMatchesOnlyItsNameStoredHashAndPasswordForAMinute() {
    MovableClock clock = new MovableClock();
    VerifiedLogins logins = new VerifiedLogins(clock);
    assertFalse(logins.remembers("alice", HASH, "right".toCharArray()), "nothing checked yet");
    logins.remember("alice", HASH, "right".toCharArray());
    assertTrue(logins.remembers("alice", HASH, "right".toCharArray()));
    assertFalse(logins.remembers("alice", HASH, "wrong".toCharArray()), "another password");
    assertFalse(logins.remembers("bob", HASH, "right".toCharArray()), "another user");
    assertFalse(
        logins.remembers("alice", HASH + "x", "right".toCharArray()), "the password changed");
    clock.advance(VerifiedLogins.REMEMBER_FOR.minusSeconds(1));
    assertTrue(logins.remembers("alice", HASH, "right".toCharArray()));
    clock.advance(Duration.ofSeconds(1));
    assertFalse(logins.remembers("alice", HASH, "right".toCharArray()), "a minute after the check");
  }

  @Test
  void forgottenAndEvictedLoginsTakeTheFullCheckAgain() {
    VerifiedLogins logins = new VerifiedLogins(new MovableClock());
    logins.remember("alice", HASH, "right".toCharArray());
    logins.forget("alice");
    assertFalse(logins.remembers("alice", HASH, "right".toCharArray()));
    logins.remember("alice", HASH, "right".toCharArray());
    for (int i = 0; i < VerifiedLogins.MAX_ENTRIES; i++) {
      logins.remember("user" + i, HASH, "p".toCharArray());
    }
    assertFalse(logins.remembers("alice", HASH, "right".toCharArray()), "the oldest went first");
    assertTrue(
        logins.remembers("user" + (VerifiedLogins.MAX_ENTRIES - 1), HASH, "p".toCharArray()));
  }

  @Test
  void aPasswordChangeOrARemovalEndsARememberedLoginAtOnce(@TempDir Path dir) {
    PasswordHasher hasher = new PasswordHasher();
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      store
          .userAccounts()
          .add(new UserAccount("alice", UserAccount.Role.USER, hasher.hash("first".toCharArray())));
      UserAuthenticator auth =
          new UserAuthenticator(
              store.userAccounts(),
              new LoginThrottle(LoginThrottle.DEFAULT_FREE_FAILURES),
              Optional.empty(),
              new MovableClock());
      assertTrue(auth.authenticate("alice", "first".toCharArray(), "127.0.0.1").isPresent());
      assertTrue(auth.authenticate("alice", "first".toCharArray(), "127.0.0.1").isPresent());
      assertFalse(
          auth.authenticate("alice", "guess".toCharArray(), "127.0.0.1").isPresent(),
          "a wrong password is refused while the right one is remembered");

      store.userAccounts().changePassword("alice", hasher.hash("second".toCharArray()));
      assertFalse(auth.authenticate("alice", "first".toCharArray(), "127.0.0.1").isPresent());
      assertTrue(auth.authenticate("alice", "second".toCharArray(), "127.0.0.1").isPresent());

      store.userAccounts().remove("alice");
      assertFalse(auth.authenticate("alice", "second".toCharArray(), "127.0.0.1").isPresent());
    }
  }
}
