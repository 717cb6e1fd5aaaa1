package io.gantry.staging.internal.steps;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A running step's link to its group: whether it has been cancelled, and what to close to stop it
 * when it is blocked in a driver or socket that ignores interrupts (a JDBC statement, an SSH
 * session).
 */
public final class StepContext {
  private final List<AutoCloseable> onCancel = new CopyOnWriteArrayList<>();
  private final PlanProgress progress;
  private volatile boolean cancelled;
  private final java.util.concurrent.atomic.AtomicInteger state =
      new java.util.concurrent.atomic.AtomicInteger();
  private static final int QUEUED = 0;
  private static final int RUNNING = 1;
  private static final int NEVER_RUN = 2;

  public StepContext(PlanProgress progress) {
    this.progress = progress;
  }

  public PlanProgress progress() {
    return progress;
  }

  /**
   * {@code action} runs if the step is cancelled while registered (e.g. {@code Statement::cancel}).
   */
  public void onCancel(AutoCloseable action) {
    onCancel.add(action);
    if (cancelled) {
      runQuietly(action);
    }
  }

  public void clearOnCancel(AutoCloseable action) {
    onCancel.remove(action);
  }

  /** Called by the step's thread first; false if it was cancelled while queued. */
  boolean begin() {
    return state.compareAndSet(QUEUED, RUNNING);
  }

  /** True if the step had not started and now never will. */
  boolean cancelBeforeStart() {
    cancelled = true;
    return state.compareAndSet(QUEUED, NEVER_RUN);
  }

  void cancel() {
    cancelled = true;
    for (AutoCloseable a : onCancel) {
      runQuietly(a);
    }
  }

  /** Throws if the step was cancelled or its thread interrupted; called every few thousand rows. */
  public void checkCancelled() throws InterruptedException {
    if (cancelled || Thread.currentThread().isInterrupted()) {
      throw new InterruptedException("cancelled");
    }
  }

  private static void runQuietly(AutoCloseable a) {
    try {
      a.close();
    } catch (Exception e) {
      // cancelling is best effort: the step notices through checkCancelled or a failed read
    }
  }
}
