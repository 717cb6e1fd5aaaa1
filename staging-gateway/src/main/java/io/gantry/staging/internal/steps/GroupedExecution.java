package io.gantry.staging.internal.steps;

import io.gantry.staging.ManifestRecord;
import io.gantry.staging.StagingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.MDC;

/**
 * Runs steps group by group, as ExecutionOrderGroup prescribes (statements of one group in
 * parallel, a group only after the previous one finished).
 *
 * <ol>
 *   <li>Groups run in ascending order; the steps of one group run in parallel on the shared step
 *       pool, at most {@code maxParallel} of this run's at a time (a window: the next step is
 *       submitted when one finishes), so one job's wide group cannot take every thread.
 *   <li>A group starts only when every step of the previous group succeeded.
 *   <li>The first failure cancels the rest of its group, waits until they have cleaned up (so no
 *       temporary file outlives the call), and is reported; later groups never start.
 *   <li>Interrupting the calling thread cancels the same way and reports a cancellation.
 * </ol>
 */
public final class GroupedExecution {
  private final ExecutorService pool;
  private final int maxParallel;

  public GroupedExecution(ExecutorService pool, int maxParallel) {
    if (maxParallel < 1) {
      throw new IllegalArgumentException("maxParallel must be at least 1, not " + maxParallel);
    }
    this.pool = pool;
    this.maxParallel = maxParallel;
  }

  public List<ManifestRecord> run(String phase, List<? extends Step> steps, PlanProgress progress)
      throws StagingException {
    Map<Integer, List<Step>> groups = new TreeMap<>();
    for (Step s : steps) {
      groups.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s);
    }
    List<ManifestRecord> records = new ArrayList<>();
    int index = 0;
    for (Map.Entry<Integer, List<Step>> group : groups.entrySet()) {
      progress.listener().groupStarted(phase, ++index, groups.size(), group.getKey());
      records.addAll(runGroup(group.getValue(), progress));
    }
    return records;
  }

  private List<ManifestRecord> runGroup(List<Step> group, PlanProgress progress)
      throws StagingException {
    ExecutorCompletionService<ManifestRecord> completion = new ExecutorCompletionService<>(pool);
    CountDownLatch finished = new CountDownLatch(group.size());
    // Every step has its context from the start, so cancelling also settles the ones not yet
    // submitted (cancelBeforeStart counts them down).
    List<StepContext> contexts = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      contexts.add(new StepContext(progress));
    }
    List<Future<ManifestRecord>> futures = new ArrayList<>();
    List<ManifestRecord> records = new ArrayList<>();
    try {
      while (futures.size() < Math.min(maxParallel, group.size())) {
        futures.add(
            submit(completion, group.get(futures.size()), contexts.get(futures.size()), finished));
      }
      for (int i = 0; i < group.size(); i++) {
        records.add(completion.take().get());
        if (futures.size() < group.size()) {
          futures.add(
              submit(
                  completion, group.get(futures.size()), contexts.get(futures.size()), finished));
        }
      }
      return records;
    } catch (ExecutionException e) {
      cancelAll(contexts, futures, finished);
      throw asStagingException(e.getCause());
    } catch (InterruptedException e) {
      cancelAll(contexts, futures, finished);
      Thread.currentThread().interrupt();
      throw new StagingException(
          "staging", "cancelled (interrupted) while running " + describe(group), e);
    }
  }

  private static Future<ManifestRecord> submit(
      ExecutorCompletionService<ManifestRecord> completion,
      Step step,
      StepContext context,
      CountDownLatch finished) {
    // the step's log lines carry what the caller's do (the server's job id and user, in the MDC)
    Map<String, String> logContext = MDC.getCopyOfContextMap();
    return completion.submit(
        () -> {
          if (logContext != null) {
            MDC.setContextMap(logContext);
          }
          if (!context.begin()) {
            MDC.clear();
            throw new InterruptedException("cancelled before it started");
          }
          try {
            ManifestRecord record = step.run(context);
            context.progress().listener().stepFinished(record);
            return record;
          } finally {
            MDC.clear(); // the pooled thread's next step may be another job's
            finished.countDown();
          }
        });
  }

  private static void cancelAll(
      List<StepContext> contexts, List<Future<ManifestRecord>> futures, CountDownLatch finished) {
    for (StepContext c : contexts) {
      if (c.cancelBeforeStart()) {
        finished.countDown(); // it will never run, so never count itself down
      } else {
        c.cancel();
      }
    }
    futures.forEach(f -> f.cancel(true));
    boolean interrupted = false;
    while (true) {
      try {
        // steps clean up (delete temporary files, roll back) before the failure is reported
        finished.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static StagingException asStagingException(Throwable cause) {
    if (cause instanceof StagingException se) {
      return se;
    }
    if (cause instanceof InterruptedException) {
      return new StagingException("staging", "cancelled", cause);
    }
    return new StagingException("staging", "unexpected failure: " + cause, cause);
  }

  private static String describe(List<Step> group) {
    return group.size() == 1
        ? group.get(0).label()
        : group.size() + " steps of group " + group.get(0).group();
  }
}
