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

  /** A step that holds its slot for a while and records how many of its group ran with it. */
  private record CountingStep(
      int group, AtomicInteger running, AtomicInteger most, AtomicInteger ran, boolean fails)
      implements Step {
    @Override
    public String label() {
      return "step of group " + group;
    }

    @Override
    public ManifestRecord run(StepContext context) throws StagingException, InterruptedException {
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        Thread.sleep(20);
        if (fails) {
          throw new StagingException("test", "this step fails");
        }
        ran.incrementAndGet();
        return new ManifestRecord("test", "source", "detail", "file", 0, 0, null, 0, false);
      } finally {
        running.decrementAndGet();
      }
    }
  }

  private static List<Step> steps(
      int count, AtomicInteger running, AtomicInteger most, AtomicInteger ran, int failing) {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      steps.add(new CountingStep(1, running, most, ran, i == failing));
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
            .run("sql", steps(12, running, most, ran, -1), new PlanProgress(StagingListener.NONE));
    assertEquals(12, records.size());
    assertEquals(12, ran.get());
    assertEquals(3, most.get(), "steps running at once");
  }

  @Test
  void aFailureLeavesTheStepsNotYetSubmittedUnrun() {
    AtomicInteger running = new AtomicInteger(),
        most = new AtomicInteger(),
        ran = new AtomicInteger();
    StagingException e =
        assertThrows(
            StagingException.class,
            () ->
                new GroupedExecution(pool, 2)
                    .run(
                        "sql",
                        steps(10, running, most, ran, 0),
                        new PlanProgress(StagingListener.NONE)));
    assertTrue(e.getMessage().contains("this step fails"), e.getMessage());
    assertTrue(ran.get() <= 2, "steps run after the failure: " + ran.get());
    assertEquals(0, running.get());
  }
}
