package io.gantry.server.internal.scheduler;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Strict first-come-first-served admission to the compute slots, as in the meta-scheduler of
 * "Middleware and Performance Issues for Financial Risk Analytics on Blue Gene/L"
 * (docs/background.md). Pure bookkeeping, no I/O and no threads: the caller holds the lock.
 *
 * <ol>
 *   <li>Jobs enter in submission order and leave it only by starting or being withdrawn.
 *   <li>The head job starts when its stage-in has finished and enough slots are free.
 *   <li>No job overtakes an earlier one: while the head waits (for staging or for slots), nothing
 *       behind it starts, even if it would fit. This is what makes FCFS predictable for a risk
 *       team's deadline, at the price of some idle slots.
 *   <li>A job's slots return when it ends.
 * </ol>
 */
final class ComputeQueue<K> {
  private final int totalSlots;
  private int freeSlots;
  private final Map<K, Waiting> waiting = new LinkedHashMap<>();
  private final Map<K, Integer> running = new LinkedHashMap<>();

  private static final class Waiting {
    final int slots;
    boolean staged;

    Waiting(int slots) {
      this.slots = slots;
    }
  }

  ComputeQueue(int totalSlots) {
    if (totalSlots < 1) {
      throw new IllegalArgumentException("total slots must be at least 1: " + totalSlots);
    }
    this.totalSlots = totalSlots;
    this.freeSlots = totalSlots;
  }

  /** Appends a job at the back of the queue. */
  void enqueue(K job, int slots) {
    if (slots < 1 || slots > totalSlots) {
      throw new IllegalArgumentException(
          "job needs " + slots + " slots; this server has " + totalSlots);
    }
    if (waiting.containsKey(job) || running.containsKey(job)) {
      throw new IllegalStateException("job already queued: " + job);
    }
    waiting.put(job, new Waiting(slots));
  }

  /** Marks a queued job's stage-in as finished, so it may start when it is at the head. */
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
    freeSlots -= slots;
    running.put(job, slots);
  }

  /**
   * Takes from the head every job that may start now, in order, and reserves their slots. The
   * caller must start each returned job, or {@link #finish} it if it cannot.
   */
  List<K> admit() {
    List<K> admitted = new ArrayList<>();
    Iterator<Map.Entry<K, Waiting>> it = waiting.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<K, Waiting> head = it.next();
      Waiting w = head.getValue();
      if (!w.staged || w.slots > freeSlots) {
        break; // the head waits, and so does everyone behind it
      }
      it.remove();
      freeSlots -= w.slots;
      running.put(head.getKey(), w.slots);
      admitted.add(head.getKey());
    }
    return admitted;
  }

  /** Returns a running job's slots. */
  void finish(K job) {
    Integer slots = running.remove(job);
    if (slots != null) {
      freeSlots += slots;
    }
  }

  int freeSlots() {
    return freeSlots;
  }

  boolean isRunning(K job) {
    return running.containsKey(job);
  }
}
