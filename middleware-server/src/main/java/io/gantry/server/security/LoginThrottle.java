package io.gantry.server.security;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Slows down password guessing, for the SOAP API and the web pages alike.
 *
 * <ol>
 *   <li>After N failed logins in a row for one user from one address ({@code
 *       auth.failed-logins-before-delay}, 5 by default), that pair waits before its next try: 1 s,
 *       then twice as long after each further failure, at most {@link #MAX_WAIT}.
 *   <li>An address that fails 6 N times in a row, whatever the user names, waits the same way:
 *       guessing many users' passwords is slowed too.
 *   <li>A successful login clears the user's and the address's count. The account itself is
 *       never locked, so nobody can lock a user out by failing on purpose from elsewhere.
 *   <li>While a pair waits, its attempts are refused without computing the password hash, so a
 *       flood of guesses costs the server nothing.
 * </ol>
 *
 * Only the most recent {@value #MAX_TRACKED} keys are kept, so the memory it needs is bounded.
 */
public final class LoginThrottle {
  public static final int DEFAULT_FREE_FAILURES = 5;
  static final Duration MAX_WAIT = Duration.ofMinutes(5);
  private static final int MAX_TRACKED = 10_000;

  private record Failures(int count, long lastNanos) {}

  private final LongSupplier nanoTime;
  private final int freePerUser;
  private final int freePerAddress;
  private final Map<String, Failures> failures = new LinkedHashMap<>(256, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
      return size() > MAX_TRACKED;
    }
  };

  /** @param freeFailures failed logins in a row before a user and address must wait */
  public LoginThrottle(int freeFailures) {
    this(freeFailures, System::nanoTime);
  }

  LoginThrottle(int freeFailures, LongSupplier nanoTime) {
    if (freeFailures < 1) {
      throw new IllegalArgumentException("freeFailures must be at least 1");
    }
    this.nanoTime = nanoTime;
    this.freePerUser = freeFailures;
    this.freePerAddress = (int) Math.min(Integer.MAX_VALUE, 6L * freeFailures);
  }

  /** How long {@code user} from {@code address} must still wait; zero when it may try now. */
  public synchronized Duration waitBefore(String user, String address) {
    long now = nanoTime.getAsLong();
    long wait = Math.max(remaining(userKey(user, address), freePerUser, now),
        remaining(addressKey(address), freePerAddress, now));
    return Duration.ofNanos(wait);
  }

  synchronized void failed(String user, String address) {
    long now = nanoTime.getAsLong();
    failures.merge(userKey(user, address), new Failures(1, now), (a, b) -> new Failures(a.count + 1, now));
    failures.merge(addressKey(address), new Failures(1, now), (a, b) -> new Failures(a.count + 1, now));
  }

  synchronized void succeeded(String user, String address) {
    failures.remove(userKey(user, address));
    failures.remove(addressKey(address));
  }

  private long remaining(String key, int free, long now) {
    Failures f = failures.get(key);
    if (f == null || f.count < free) {
      return 0;
    }
    int doublings = Math.min(f.count - free, 30);
    long wait = Math.min(Duration.ofSeconds(1).toNanos() << doublings, MAX_WAIT.toNanos());
    return Math.max(0, f.lastNanos + wait - now);
  }

  private static String userKey(String user, String address) {
    return "u:" + (user == null ? "" : user.toLowerCase(Locale.ROOT)) + "@" + address;
  }

  private static String addressKey(String address) {
    return "a:" + address;
  }
}
