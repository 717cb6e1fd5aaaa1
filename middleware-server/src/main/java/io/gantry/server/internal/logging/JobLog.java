package io.gantry.server.internal.logging;

import java.util.concurrent.Callable;
import org.slf4j.MDC;

/**
 * The job and user the current thread works for, in SLF4J's MDC, so that every line logged
 * meanwhile (by the server, the staging gateway, the dispatcher or a library) carries them: the
 * text log shows {@code job=ID user=NAME}, the JSON lines an {@code mdc} object with {@code jobId}
 * and {@code user}. Closing puts back what the thread carried before, so scopes nest (a SOAP call
 * that submits a job) and a pooled thread carries nothing into its next task.
 */
public final class JobLog implements AutoCloseable {
  public static final String JOB_ID = "jobId";
  public static final String USER = "user";

  private final String jobBefore;
  private final String userBefore;

  private JobLog() {
    this.jobBefore = MDC.get(JOB_ID);
    this.userBefore = MDC.get(USER);
  }

  /** Lines logged until {@link #close()} are about job {@code jobId} of {@code user}. */
  public static JobLog of(Object jobId, String user) {
    JobLog scope = new JobLog();
    put(JOB_ID, jobId == null ? null : jobId.toString());
    put(USER, user);
    return scope;
  }

  /** Lines logged until {@link #close()} are about {@code user}'s request (no job yet). */
  public static JobLog ofUser(String user) {
    return of(null, user);
  }

  /**
   * This thread's lines are about job {@code jobId} (none: null) of {@code user} until {@link
   * #clear()}: a request's scope, which its servlet ends.
   */
  public static void set(Object jobId, String user) {
    put(JOB_ID, jobId == null ? null : jobId.toString());
    put(USER, user);
  }

  /** Forgets the job and user of this thread (a request thread going back to its pool). */
  public static void clear() {
    MDC.remove(JOB_ID);
    MDC.remove(USER);
  }

  /** {@code task}, run on another thread with the job and user this thread has now. */
  public static Runnable carried(Runnable task) {
    String job = MDC.get(JOB_ID);
    String user = MDC.get(USER);
    return () -> {
      try (JobLog scope = of(job, user)) {
        task.run();
      }
    };
  }

  /** As {@link #carried(Runnable)}, for a task with a result. */
  public static <T> Callable<T> carried(Callable<T> task) {
    String job = MDC.get(JOB_ID);
    String user = MDC.get(USER);
    return () -> {
      try (JobLog scope = of(job, user)) {
        return task.call();
      }
    };
  }

  @Override
  public void close() {
    put(JOB_ID, jobBefore);
    put(USER, userBefore);
  }

  private static void put(String key, String value) {
    if (value == null || value.isEmpty()) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }
}
