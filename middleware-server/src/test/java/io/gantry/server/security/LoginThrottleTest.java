package io.gantry.server.security;

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
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("alice", "10.0.0.1"), "the wait runs down");
    fail("alice", "10.0.0.1", 20);
    assertEquals(LoginThrottle.MAX_WAIT, throttle.waitBefore("alice", "10.0.0.1"));
  }

  @Test
  void theWaitIsForOneUserFromOneAddressAndUserNamesIgnoreCase() {
    fail("alice", "10.0.0.1", 5);
    assertEquals(Duration.ofSeconds(1), throttle.waitBefore("ALICE", "10.0.0.1"));
    assertEquals(Duration.ZERO, throttle.waitBefore("alice", "10.0.0.2"), "alice from elsewhere");
    assertEquals(Duration.ZERO, throttle.waitBefore("bob", "10.0.0.1"), "bob from the same address");
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
    assertEquals(Duration.ZERO, throttle.waitBefore("alice", "10.0.0.1"), "counting starts again from zero");
  }
}
