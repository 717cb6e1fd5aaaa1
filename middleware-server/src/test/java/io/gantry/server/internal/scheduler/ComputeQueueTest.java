package io.gantry.server.internal.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ComputeQueueTest {

  @Test
  void stagedHeadStartsWhenSlotsAreFree() {
    ComputeQueue<String> q = new ComputeQueue<>(4);
    q.enqueue("a", 2);
    assertEquals(List.of(), q.admit(), "not staged yet");
    q.markStaged("a");
    assertEquals(List.of("a"), q.admit());
    assertEquals(2, q.freeSlots());
  }

  @Test
  void laterJobNeverOvertakesAHeadStillStaging() {
    ComputeQueue<String> q = new ComputeQueue<>(4);
    q.enqueue("first", 1);
    q.enqueue("second", 1);
    q.markStaged("second");
    assertEquals(List.of(), q.admit(), "second is staged but first is still staging");
    q.markStaged("first");
    assertEquals(List.of("first", "second"), q.admit());
  }

  @Test
  void laterSmallJobWaitsBehindAHeadThatDoesNotFit() {
    ComputeQueue<String> q = new ComputeQueue<>(4);
    q.enqueue("running", 3);
    q.markStaged("running");
    assertEquals(List.of("running"), q.admit());
    q.enqueue("big", 2);
    q.enqueue("small", 1);
    q.markStaged("big");
    q.markStaged("small");
    assertEquals(
        List.of(), q.admit(), "small would fit in the free slot but must not overtake big");
    q.finish("running");
    assertEquals(List.of("big", "small"), q.admit());
    assertEquals(1, q.freeSlots());
  }

  @Test
  void withdrawnHeadLetsTheNextStart() {
    ComputeQueue<String> q = new ComputeQueue<>(2);
    q.enqueue("cancelled", 1);
    q.enqueue("next", 1);
    q.markStaged("next");
    assertTrue(q.withdraw("cancelled"));
    assertEquals(List.of("next"), q.admit());
  }

  @Test
  void jobLargerThanTheServerIsRefused() {
    ComputeQueue<String> q = new ComputeQueue<>(2);
    var e = assertThrows(IllegalArgumentException.class, () -> q.enqueue("huge", 3));
    assertEquals("job needs 3 slots; this server has 2", e.getMessage());
  }

  @Test
  void recoveredRunningJobHoldsItsSlots() {
    ComputeQueue<String> q = new ComputeQueue<>(2);
    q.restoreRunning("old", 2);
    q.enqueue("new", 1);
    q.markStaged("new");
    assertEquals(List.of(), q.admit());
    q.finish("old");
    assertEquals(List.of("new"), q.admit());
  }
}
