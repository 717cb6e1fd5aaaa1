package io.gantry.server.internal.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Admission to the compute slots by priority class, fair share within a class and first come first
 * served for each user, after the meta-scheduler of "Middleware and Performance Issues for
 * Financial Risk Analytics on Blue Gene/L" (docs/background.md). Pure bookkeeping, no I/O and no
 * threads: the caller holds the lock.
 *
 * <ol>
 *   <li>Strict priority between classes: while a job of a higher class (a lower rank) waits, no job
 *       of a lower class starts. A running job is never preempted.
 *   <li>Fair share within a class, as round-robin fair queuing among users ("Analysis and
 *       Simulation of a Fair Queueing Algorithm", docs/background.md) with each user's running
 *       slots as the usage Slurm's fair-share factor decays (docs/operations.md, "Priority
 *       classes"): the next job is that of the user who holds the fewest slots now; among equals,
 *       the user whose last job started longest ago (a user never started here first); among those,
 *       the user whose oldest waiting job came first.
 *   <li>First come first served among one user's jobs of a class.
 *   <li>No job overtakes the next one so chosen: while it waits (for staging or for slots), nothing
 *       else starts, even if it would fit. This is what makes the order predictable for a risk
 *       team's deadline, at the price of some idle slots.
 *   <li>A job's slots return when it ends.
 * </ol>
 *
 * With one class and one user this is the strict submission order it always was.
 */
final class ComputeQueue<K> {
  private final int totalSlots;
  private int freeSlots;
  private final Map<K, Waiting> waiting = new LinkedHashMap<>();
  private final Map<K, Running> running = new LinkedHashMap<>();

  /** Slots each user's running jobs hold now (users with none are absent). */
  private final Map<String, Integer> userSlots = new HashMap<>();

  /** When each user's last job started here, as a count of starts (users never started: absent). */
  private final Map<String, Long> userLastStart = new HashMap<>();

  private long starts;

  private static final class Waiting {
    final int slots;
    final int rank;
    final String user;
    boolean staged;

    Waiting(int slots, int rank, String user) {
      this.slots = slots;
      this.rank = rank;
      this.user = user;
    }
  }

  private record Running(int slots, String user) {}

  ComputeQueue(int totalSlots) {
    if (totalSlots < 1) {
      throw new IllegalArgumentException("total slots must be at least 1: " + totalSlots);
    }
    this.totalSlots = totalSlots;
    this.freeSlots = totalSlots;
  }

  /** Appends a job of the one class and one anonymous user (strict submission order). */
  void enqueue(K job, int slots) {
    enqueue(job, slots, 0, "");
  }

  /**
   * Appends a job of {@code user} to the class of {@code rank} (0 the highest, see {@link
   * QueueClasses#rank}).
   */
  void enqueue(K job, int slots, int rank, String user) {
    if (slots < 1 || slots > totalSlots) {
      throw new IllegalArgumentException(
          "job needs " + slots + " slots; this server has " + totalSlots);
    }
    if (waiting.containsKey(job) || running.containsKey(job)) {
      throw new IllegalStateException("job already queued: " + job);
    }
    waiting.put(job, new Waiting(slots, rank, user));
  }

  /** Marks a queued job's stage-in as finished, so it may start when it is next. */
  void markStaged(K job) {
    Waiting w = waiting.get(job);
    if (w != null) {
      w.staged = true;
    }
  }

  /** Removes a job that has not started (cancelled, or failed in stage-in). */
  boolean withdraw(K job) {
    return waiting.remove(job) != null;
  }

  /** Re-admits a job recovered as already running (its slots are taken). */
  void restoreRunning(K job, int slots) {
    restoreRunning(job, slots, "");
  }

  /** Re-admits {@code user}'s job recovered as already running (its slots are taken). */
  void restoreRunning(K job, int slots, String user) {
    freeSlots -= slots;
    running.put(job, new Running(slots, user));
    userSlots.merge(user, slots, Integer::sum);
    userLastStart.put(user, ++starts);
  }

  /**
   * Takes every job that may start now, in the order above, and reserves their slots. The caller
   * must start each returned job, or {@link #finish} it if it cannot.
   */
  List<K> admit() {
    List<K> admitted = new ArrayList<>();
    while (true) {
      K next = next();
      if (next == null) {
        return admitted;
      }
      Waiting w = waiting.get(next);
      if (!w.staged || w.slots > freeSlots) {
        return admitted; // the next job waits, and so does everyone after it
      }
      waiting.remove(next);
      freeSlots -= w.slots;
      running.put(next, new Running(w.slots, w.user));
      userSlots.merge(w.user, w.slots, Integer::sum);
      userLastStart.put(w.user, ++starts);
      admitted.add(next);
    }
  }

  /**
   * The job that starts next: the highest class with a waiting job, in it the user the fair share
   * favours, that user's oldest job of the class. Null when nothing waits.
   */
  private K next() {
    int rank = Integer.MAX_VALUE;
    for (Waiting w : waiting.values()) {
      rank = Math.min(rank, w.rank);
    }
    // waiting is in arrival order, so the first job seen of each user is that user's oldest
    Map<String, K> oldestOfUser = new LinkedHashMap<>();
    for (Map.Entry<K, Waiting> e : waiting.entrySet()) {
      if (e.getValue().rank == rank) {
        oldestOfUser.putIfAbsent(e.getValue().user, e.getKey());
      }
    }
    String chosen = null;
    for (String user : oldestOfUser.keySet()) { // in the order of their oldest job: ties go first
      if (chosen == null || favours(user, chosen)) {
        chosen = user;
      }
    }
    return chosen == null ? null : oldestOfUser.get(chosen);
  }

  /** Whether the fair share puts {@code user} strictly before {@code other}. */
  private boolean favours(String user, String other) {
    int slots = userSlots.getOrDefault(user, 0);
    int otherSlots = userSlots.getOrDefault(other, 0);
    if (slots != otherSlots) {
      return slots < otherSlots;
    }
    return userLastStart.getOrDefault(user, 0L) < userLastStart.getOrDefault(other, 0L);
  }

  /** Returns a running job's slots. */
  void finish(K job) {
    Running r = running.remove(job);
    if (r != null) {
      freeSlots += r.slots();
      userSlots.computeIfPresent(r.user(), (u, s) -> s == r.slots() ? null : s - r.slots());
    }
  }

  int freeSlots() {
    return freeSlots;
  }

  boolean isRunning(K job) {
    return running.containsKey(job);
  }
}
