package io.gantry.staging.internal.steps;

import java.time.Duration;

/** Exponential backoff between connection attempts: {@code initial}, then doubling. */
public final class Backoff {
  private Backoff() {}

  /** Sleeps before attempt {@code nextAttempt} (2 = first retry). */
  public static void sleepBefore(int nextAttempt, Duration initial) throws InterruptedException {
    long millis = initial.toMillis() << Math.min(10, Math.max(0, nextAttempt - 2));
    Thread.sleep(millis);
  }

  /** The innermost non-empty message of an exception chain: usually the one a person can act on. */
  public static String rootMessage(Throwable t) {
    String message = String.valueOf(t.getMessage());
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        message = c.getMessage();
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return message;
  }
}
