package io.gantry.server.internal.security;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Slows down password guessing, for the SOAP API and the web pages alike, without letting one
 * address that fails under many names stop the correct logins of the other people behind it (a
 * proxy or a NAT is one address for everyone).
 *
 * <ol>
 *   <li><b>One user from one address</b>: after {@code perPair} failed logins in a row ({@code
 *       auth.failed-logins-before-delay}, 5 by default) that pair waits before its next try: 1 s,
 *       then twice as long after each further failure, at most {@link #MAX_WAIT}.
 *   <li><b>One user from everywhere</b>: failures for a user from addresses it has not logged in
 *       from recently are also counted together ({@code auth.failed-logins-per-user}); over that
 *       number, logins as that user from such addresses wait the same way. Guessing one account
 *       from many addresses is slowed, while the user's own recent addresses are exempt, so an
 *       attacker cannot lock the user out of the places they work from.
 *   <li><b>One address under many names</b>: failures from one address are counted together ({@code
 *       auth.failed-logins-per-address}); over that number, the address waits only for names that
 *       have not logged in successfully from it recently. Spraying guesses or made-up names from
 *       one address is slowed; the colleagues behind the same address who logged in from it before
 *       go on as usual. Failures of those trusted pairs count only for the pair.
 *   <li>"Recently" is {@code auth.trusted-address-period} (30 days by default) since the last
 *       successful login of that user from that address.
 *   <li>A success clears the pair's and the user's counts, never the address's: otherwise an
 *       attacker with an account of their own could reset their address by logging in.
 *   <li>The account itself is never locked; while a key waits, attempts are refused without
 *       computing the password hash, so a flood of guesses costs the server nothing; the refusal is
 *       the same for known and unknown names.
 * </ol>
 *
 * Only the most recent {@value #MAX_TRACKED} counts and trusted pairs are kept, so the memory it
 * needs is bounded.
 */
public final class LoginThrottle {
  public static final int DEFAULT_FREE_FAILURES = 5;
  public static final Duration MAX_WAIT = Duration.ofMinutes(5);
  private static final int MAX_TRACKED = 10_000;

  /**
   * The free failures of each kind of key and how long a successful login makes its address trusted
   * for its user.
   */
  public record Policy(int perPair, int perUser, int perAddress, Duration trustedAddressPeriod) {
    public static final Duration DEFAULT_TRUSTED_ADDRESS_PERIOD = Duration.ofDays(30);

    public Policy {
      if (perPair < 1 || perUser < 1 || perAddress < 1) {
        throw new IllegalArgumentException("failed logins before a delay must be at least 1");
      }
      if (trustedAddressPeriod.isNegative()) {
        throw new IllegalArgumentException("auth.trusted-address-period must not be negative");
      }
    }

    /**
     * The defaults for {@code perPair} free failures: 4 times as many per user, 6 times per
     * address.
     */
    public static Policy of(int perPair) {
      return new Policy(
          perPair,
          (int) Math.min(Integer.MAX_VALUE, 4L * perPair),
          (int) Math.min(Integer.MAX_VALUE, 6L * perPair),
          DEFAULT_TRUSTED_ADDRESS_PERIOD);
    }
  }

  private record Failures(int count, long lastNanos) {}

  private final LongSupplier nanoTime;
  private final Policy policy;
  private final Map<String, Failures> failures = bounded();
  private final Map<String, Long> trustedSince = bounded();

  /**
   * @param freeFailures failed logins in a row before a user and address must wait
   */
  public LoginThrottle(int freeFailures) {
    this(Policy.of(freeFailures));
  }

  public LoginThrottle(Policy policy) {
    this(policy, System::nanoTime);
  }

  public LoginThrottle(int freeFailures, LongSupplier nanoTime) {
    this(Policy.of(freeFailures), nanoTime);
  }

  public LoginThrottle(Policy policy, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.policy = policy;
  }

  private static <V> Map<String, V> bounded() {
    return new LinkedHashMap<>(256, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MAX_TRACKED;
      }
    };
  }

  /** How long {@code user} from {@code address} must still wait; zero when it may try now. */
  public synchronized Duration waitBefore(String user, String address) {
    long now = nanoTime.getAsLong();
    long wait = remaining(pairKey(user, address), policy.perPair(), now);
    if (!trusted(user, address, now)) {
      wait =
          Math.max(
              wait,
              Math.max(
                  remaining(userKey(user), policy.perUser(), now),
                  remaining(addressKey(address), policy.perAddress(), now)));
    }
    return Duration.ofNanos(wait);
  }

  public synchronized void failed(String user, String address) {
    long now = nanoTime.getAsLong();
    count(pairKey(user, address), now);
    if (!trusted(user, address, now)) {
      count(userKey(user), now);
      count(addressKey(address), now);
    }
  }

  public synchronized void succeeded(String user, String address) {
    failures.remove(pairKey(user, address));
    failures.remove(userKey(user));
    trustedSince.put(pairKey(user, address), nanoTime.getAsLong());
  }

  private void count(String key, long now) {
    failures.merge(key, new Failures(1, now), (a, b) -> new Failures(a.count + 1, now));
  }

  private boolean trusted(String user, String address, long now) {
    Long since = trustedSince.get(pairKey(user, address));
    return since != null && now - since <= policy.trustedAddressPeriod().toNanos();
  }

  private static long remaining(Failures f, int free, long now) {
    if (f == null || f.count < free) {
      return 0;
    }
    int doublings = Math.min(f.count - free, 30);
    long wait = Math.min(Duration.ofSeconds(1).toNanos() << doublings, MAX_WAIT.toNanos());
    return Math.max(0, f.lastNanos + wait - now);
  }

  private long remaining(String key, int free, long now) {
    return remaining(failures.get(key), free, now);
  }

  private static String name(String user) {
    return user == null ? "" : user.toLowerCase(Locale.ROOT);
  }

  private static String pairKey(String user, String address) {
    return "p:" + name(user) + "@" + address;
  }

  private static String userKey(String user) {
    return "u:" + name(user);
  }

  private static String addressKey(String address) {
    return "a:" + address;
  }
}
