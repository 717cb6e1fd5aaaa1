package io.gantry.server.internal.accounts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.OsAccounts;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The host's answer for an account name (looked up for real, through NSS) is reused for the time
 * given and asked again after it; an account that is not found is asked again every time.
 */
class AccountLookupsTest {
  private final AtomicInteger asked = new AtomicInteger();
  private final AtomicLong now = new AtomicLong();
  private final AccountLookups lookups =
      new AccountLookups(
          Duration.ofSeconds(5),
          name -> {
            asked.incrementAndGet();
            return OsAccounts.lookup(name);
          },
          now::get);

  @Test
  void anAnswerIsReusedWithinTheTimeAndAskedAgainAfterIt() {
    JobAccount first = lookups.lookup("nobody");
    now.addAndGet(Duration.ofMillis(4_999).toNanos());
    assertEquals(first, lookups.lookup("nobody"));
    assertEquals(1, asked.get());
    now.addAndGet(Duration.ofMillis(1).toNanos());
    assertEquals(first, lookups.lookup("nobody"));
    assertEquals(2, asked.get());
  }

  @Test
  void anAccountNotFoundIsAskedForEveryTime() {
    for (int i = 1; i <= 2; i++) {
      assertThrows(IllegalArgumentException.class, () -> lookups.lookup("gantry-no-such-user"));
      assertEquals(i, asked.get());
    }
  }
}
