package io.gantry.server.internal.accounts;

import io.gantry.dispatcher.JobAccount;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The host's answers for OS account names, each reused for a short time: a job's account is looked
 * up at submission and again at launch, and each lookup starts programs. Only accounts found are
 * kept (a failed lookup throws and is asked again next time), and an answer older than the limit is
 * asked again, so a change to an account takes effect within that time.
 */
final class AccountLookups {
  private record Found(JobAccount account, long atNanos) {}

  private final long keptNanos;
  private final Function<String, JobAccount> lookup;
  private final LongSupplier clock;
  private final Map<String, Found> found = new ConcurrentHashMap<>();

  AccountLookups(Duration kept, Function<String, JobAccount> lookup) {
    this(kept, lookup, System::nanoTime);
  }

  AccountLookups(Duration kept, Function<String, JobAccount> lookup, LongSupplier clock) {
    this.keptNanos = kept.toNanos();
    this.lookup = lookup;
    this.clock = clock;
  }

  /**
   * The account of that name, from an answer younger than the limit or looked up now.
   *
   * @throws IllegalArgumentException as the lookup does, when there is no such account
   */
  JobAccount lookup(String name) {
    long now = clock.getAsLong();
    Found f = found.get(name);
    if (f != null && now - f.atNanos() < keptNanos) {
      return f.account();
    }
    JobAccount account = lookup.apply(name);
    if (found.size() > 10_000) {
      found.clear(); // bounded: one entry per account name jobs run under
    }
    found.put(name, new Found(account, now));
    return account;
  }
}
