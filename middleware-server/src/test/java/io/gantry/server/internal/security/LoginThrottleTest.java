package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final LoginThrottle throttle = new LoginThrottle(5, now::get);

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  private void fail(String user, String address, int times) {
    for (int i = 0; i < times; i++) {
      throttle.failed(user, address);
    }
  }

  @Test
  void fiveFailuresAreFreeThenTheWaitDoublesWithEachFailureUpToFiveMinutes() {
    fail("alice", "10.0.0.1", 4);
    assertEquals(Duration.ZERO, throttle.waitBefore("alice", "10.0.0.1"));
    fail("alice", "10.0.0.1", 1);
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("alice", "10.0.0.1"));
    fail("alice", "10.0.0.1", 1);
    assertEquals(Duration.ofSeconds(2), throttle.waitBefore("alice", "10.0.0.1"));
    fail("alice", "10.0.0.1", 1);
    assertEquals(Duration.ofSeconds(4), throttle.waitBefore("alice", "10.0.0.1"));
    advance(Duration.ofSeconds(3));
    assertEquals(
        Duration.ofSeconds(1), throttle.waitBefore("alice", "10.0.0.1"), "the wait runs down");
    fail("alice", "10.0.0.1", 20);
    assertEquals(LoginThrottle.MAX_WAIT, throttle.waitBefore("alice", "10.0.0.1"));
  }

  @Test
  void theWaitIsForOneUserFromOneAddressAndUserNamesIgnoreCase() {
    fail("alice", "10.0.0.1", 5);
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("ALICE", "10.0.0.1"));
    assertEquals(Duration.ZERO, throttle.waitBefore("alice", "10.0.0.2"), "alice from elsewhere");
    assertEquals(
        Duration.ZERO, throttle.waitBefore("bob", "10.0.0.1"), "bob from the same address");
  }

  @Test
  void anAddressGuessingManyUsersWaitsToo() {
    for (int i = 0; i < 30; i++) {
      throttle.failed("user" + i, "10.0.0.9");
    }
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("someone-new", "10.0.0.9"));
    assertEquals(Duration.ZERO, throttle.waitBefore("someone-new", "10.0.0.8"));
  }

  @Test
  void aSuccessClearsTheCount() {
    fail("alice", "10.0.0.1", 7);
    throttle.succeeded("alice", "10.0.0.1");
    assertEquals(Duration.ZERO, throttle.waitBefore("alice", "10.0.0.1"));
    fail("alice", "10.0.0.1", 4);
    assertEquals(
        Duration.ZERO, throttle.waitBefore("alice", "10.0.0.1"), "counting starts again from zero");
  }

  @Test
  void manyFailuresUnderMadeUpNamesDoNotDelayUsersWhoLoggedInFromThatAddressBefore() {
    throttle.succeeded("alice", "10.0.0.9");
    throttle.succeeded("bob", "10.0.0.9");
    for (int i = 0; i < 31; i++) {
      throttle.failed("made-up-" + i, "10.0.0.9");
    }
    assertEquals(
        Duration.ofSeconds(2),
        throttle.waitBefore("made-up-99", "10.0.0.9"),
        "the sprayer is slowed");
    assertEquals(
        Duration.ZERO, throttle.waitBefore("alice", "10.0.0.9"), "alice behind the same NAT");
    assertEquals(Duration.ZERO, throttle.waitBefore("bob", "10.0.0.9"), "bob behind the same NAT");
    advance(LoginThrottle.MAX_WAIT);
    assertEquals(
        Duration.ZERO, throttle.waitBefore("made-up-99", "10.0.0.9"), "the wait runs down");
  }

  @Test
  void aUsersOwnFailuresFromATrustedAddressCountOnlyForThePair() {
    throttle.succeeded("alice", "10.0.0.9");
    fail("alice", "10.0.0.9", 40);
    assertEquals(
        Duration.ZERO,
        throttle.waitBefore("carol", "10.0.0.9"),
        "the address is not slowed for others");
    assertEquals(
        Duration.ZERO, throttle.waitBefore("alice", "10.0.0.7"), "nor alice's account elsewhere");
    assertEquals(LoginThrottle.MAX_WAIT, throttle.waitBefore("alice", "10.0.0.9"), "the pair is");
  }

  @Test
  void guessingOneAccountFromManyAddressesSlowsItFromNewAddressesButNotFromItsOwn() {
    throttle.succeeded("alice", "10.0.0.1");
    for (int i = 0; i < 20; i++) {
      throttle.failed("alice", "192.0.2." + i);
    }
    assertEquals(
        Duration.ofSeconds(1), throttle.waitBefore("alice", "198.51.100.1"), "a new address waits");
    assertEquals(
        Duration.ZERO, throttle.waitBefore("alice", "10.0.0.1"), "alice's own address does not");
    assertEquals(Duration.ZERO, throttle.waitBefore("bob", "198.51.100.1"), "others do not");
  }

  @Test
  void anAddressIsTrustedForAUserOnlyForTheTrustedPeriod() {
    throttle.succeeded("alice", "10.0.0.9");
    advance(LoginThrottle.Policy.DEFAULT_TRUSTED_ADDRESS_PERIOD.plusSeconds(1));
    for (int i = 0; i < 30; i++) {
      throttle.failed("made-up-" + i, "10.0.0.9");
    }
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("alice", "10.0.0.9"));
  }

  @Test
  void aSuccessDoesNotClearTheAddressCount() {
    for (int i = 0; i < 30; i++) {
      throttle.failed("made-up-" + i, "10.0.0.9");
    }
    throttle.succeeded("mallory", "10.0.0.9"); // an attacker's own account
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("made-up-31", "10.0.0.9"));
  }
}
