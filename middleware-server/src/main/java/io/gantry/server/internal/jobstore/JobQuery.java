package io.gantry.server.internal.jobstore;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which jobs to list, in submission order, one page at a time. Paging is by key ("after this seq"),
 * not by offset, so a page does not shift when jobs are submitted while a user pages.
 *
 * @param owner only this owner's jobs, or null for everyone's
 * @param states only jobs in these states; empty for all
 * @param afterSeq only jobs submitted after the job with this seq; 0 to start at the beginning
 * @param limit at most this many jobs (1..1000)
 */
public record JobQuery(String owner, Set<JobState> states, long afterSeq, int limit) {
  public static final int MAX_LIMIT = 1000;

  public JobQuery {
    states = states.isEmpty() ? EnumSet.noneOf(JobState.class) : EnumSet.copyOf(states);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (afterSeq < 0) {
      throw new IllegalArgumentException("afterSeq cannot be negative, was " + afterSeq);
    }
  }

  /** Everyone's jobs, first page. */
  public static JobQuery all(int limit) {
    return new JobQuery(null, Set.of(), 0, limit);
  }

  public static JobQuery ownedBy(String owner, int limit) {
    return new JobQuery(owner, Set.of(), 0, limit);
  }

  public JobQuery inStates(Set<JobState> only) {
    return new JobQuery(owner, only, afterSeq, limit);
  }

  /** The page after the one that ended with {@code last}. */
  public JobQuery after(JobRecord last) {
    return new JobQuery(owner, states, last.seq(), limit);
  }
}
