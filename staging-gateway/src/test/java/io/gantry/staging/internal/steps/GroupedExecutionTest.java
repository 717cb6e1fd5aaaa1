package io.gantry.staging.internal.steps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.ManifestRecord;
import io.gantry.staging.StagingException;
import io.gantry.staging.StagingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupedExecutionTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  /**
   * A step that holds its slot for {@code millis} (a failing one fails at once) and records how
   * many of its group began, ran with it and ran to their end.
   */
  private record CountingStep(
      int group,
      AtomicInteger began,
      AtomicInteger running,
      AtomicInteger most,
      AtomicInteger ran,
      boolean fails,
      long millis)
      implements Step {
    @Override
    public String label() {
      return "step of group " + group;
    }

    @Override
    public ManifestRecord run(StepContext context) throws StagingException, InterruptedException {
      began.incrementAndGet();
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        if (fails) {
          throw new StagingException("test", "this step fails");
        }
        Thread.sleep(millis);
        ran.incrementAndGet();
        return new ManifestRecord("test", "source", "detail", "file", 0, 0, null, 0, false);
      } finally {
        running.decrementAndGet();
      }
    }
  }

  private static List<Step> steps(
      int count,
      AtomicInteger began,
      AtomicInteger running,
      AtomicInteger most,
      AtomicInteger ran,
      int failing,
      long millis) {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      steps.add(new CountingStep(1, began, running, most, ran, i == failing, millis));
    }
    return steps;
  }

  @Test
  void aWideGroupRunsNoMoreStepsAtOnceThanTheLimitOnAnUnboundedPool() throws Exception {
    AtomicInteger running = new AtomicInteger(),
        most = new AtomicInteger(),
        ran = new AtomicInteger();
    List<ManifestRecord> records =
        new GroupedExecution(pool, 3)
            .run(
                "sql",
                steps(12, new AtomicInteger(), running, most, ran, -1, 20),
                new PlanProgress(StagingListener.NONE));
    assertEquals(12, records.size());
    assertEquals(12, ran.get());
    assertEquals(3, most.get(), "steps running at once");
  }

  @Test
  void aFailureLeavesTheStepsNotYetSubmittedUnrun() {
    // The first step fails at once while the one beside it would hold its slot for a minute: no
    // step ends before the failure, so nothing is submitted after it, whatever the machine's load;
    // the one running beside it is stopped (interrupted), not waited for.
    AtomicInteger began = new AtomicInteger(),
        running = new AtomicInteger(),
        most = new AtomicInteger(),
        ran = new AtomicInteger();
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                new GroupedExecution(pool, 2)
                    .run(
                        "sql",
                        steps(10, began, running, most, ran, 0, 60_000),
                        new PlanProgress(StagingListener.NONE)));
    assertTrue(e.getMessage().contains("this step fails"), e.getMessage());
    assertTrue(began.get() <= 2, "steps begun: " + began.get() + " (the limit is 2)");
    assertEquals(0, ran.get(), "steps that ran to their end after the failure");
    assertEquals(0, running.get());
  }
}
