package io.gantry.server.internal.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The compute queue's policy with priority classes: strict priority between classes, fair share
 * among users within a class, first come first served for each user (ComputeQueue, QueueClasses).
 */
class PriorityQueuePolicyTest {
  static final QueueClasses CLASSES =
      new QueueClasses(
          List.of("urgent", "normal", "batch"), "normal", Map.of("urgent", Set.of("alice")));
  static final int URGENT = CLASSES.rank(Optional.of("urgent"));
  static final int NORMAL = CLASSES.rank(Optional.empty());
  static final int BATCH = CLASSES.rank(Optional.of("batch"));

  private static void add(ComputeQueue<String> q, String job, int rank, String user) {
    q.enqueue(job, 1, rank, user);
    q.markStaged(job);
  }

  @Test
  void anUrgentJobStartsAtTheNextFreeSlotAheadOfAFullNormalBacklog() {
    ComputeQueue<String> q = new ComputeQueue<>(1);
    add(q, "n0", NORMAL, "bob");
    assertEquals(List.of("n0"), q.admit());
    for (int i = 1; i <= 10; i++) {
      add(q, "n" + i, NORMAL, "bob");
    }
    add(q, "b1", BATCH, "carol");
    add(q, "u1", URGENT, "alice");
    assertEquals(List.of(), q.admit(), "the running job is not preempted");
    q.finish("n0");
    assertEquals(List.of("u1"), q.admit());
    q.finish("u1");
    assertEquals(List.of("n1"), q.admit(), "then the normal class, in order");
    for (int i = 1; i < 10; i++) {
      q.finish("n" + i);
      assertEquals(List.of("n" + (i + 1)), q.admit());
    }
    q.finish("n10");
    assertEquals(List.of("b1"), q.admit(), "batch only once normal is empty");
  }

  @Test
  void aHigherClassJobStillStagingKeepsLowerClassesBack() {
    ComputeQueue<String> q = new ComputeQueue<>(2);
    add(q, "n1", NORMAL, "bob");
    q.enqueue("u1", 1, URGENT, "alice"); // its stage-in has not finished
    assertEquals(List.of(), q.admit(), "n1 must not take the slot u1 will need");
    q.markStaged("u1");
    assertEquals(List.of("u1", "n1"), q.admit());
  }

  @Test
  void oneUsersTwentyQueuedJobsDoNotStarveAnotherUsersOne() {
    ComputeQueue<String> q = new ComputeQueue<>(1);
    for (int i = 1; i <= 20; i++) {
      add(q, "a" + i, NORMAL, "alice");
    }
    assertEquals(List.of("a1"), q.admit());
    add(q, "b1", NORMAL, "bob");
    q.finish("a1");
    assertEquals(List.of("b1"), q.admit(), "bob's one job starts next, not alice's second");
    q.finish("b1");
    assertEquals(List.of("a2"), q.admit(), "then alice's jobs, in the order she submitted them");
  }

  @Test
  void usersTakeTurnsAndEachUsersJobsKeepTheirOrder() {
    ComputeQueue<String> q = new ComputeQueue<>(1);
    for (int i = 1; i <= 3; i++) {
      add(q, "a" + i, NORMAL, "alice");
    }
    for (int i = 1; i <= 2; i++) {
      add(q, "b" + i, NORMAL, "bob");
    }
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      List<String> started = q.admit();
      assertEquals(1, started.size());
      order.addAll(started);
      q.finish(started.get(0));
    }
    assertEquals(List.of("a1", "b1", "a2", "b2", "a3"), order);
  }

  @Test
  void theUserHoldingFewerSlotsGoesFirst() {
    ComputeQueue<String> q = new ComputeQueue<>(4);
    q.enqueue("a-wide", 3, NORMAL, "alice");
    q.markStaged("a-wide");
    assertEquals(List.of("a-wide"), q.admit());
    add(q, "a2", NORMAL, "alice"); // came first, but alice holds 3 slots
    add(q, "b1", NORMAL, "bob");
    assertEquals(List.of("b1"), q.admit());
    assertEquals(0, q.freeSlots());
    q.finish("a-wide");
    assertEquals(List.of("a2"), q.admit());
  }

  @Test
  void theNextJobByThePolicyIsNotOvertakenByOneThatWouldFit() {
    ComputeQueue<String> q = new ComputeQueue<>(2);
    add(q, "a1", NORMAL, "alice");
    assertEquals(List.of("a1"), q.admit());
    q.enqueue("b-wide", 2, NORMAL, "bob"); // bob holds nothing: his job is next, and needs 2
    q.markStaged("b-wide");
    add(q, "a2", NORMAL, "alice");
    assertEquals(List.of(), q.admit(), "a2 would fit, but b-wide is next");
    q.finish("a1");
    assertEquals(List.of("b-wide"), q.admit());
  }

  @Test
  void aRecoveredRunningJobCountsForItsOwnersShare() {
    ComputeQueue<String> q = new ComputeQueue<>(2);
    q.restoreRunning("a0", 1, "alice");
    add(q, "a1", NORMAL, "alice");
    add(q, "b1", NORMAL, "bob");
    assertEquals(List.of("b1"), q.admit());
  }

  @Test
  void classesAreRefusedByNameToUsersNotAllowedAndUnknownClassesRankAsTheDefault() {
    assertEquals(Optional.empty(), CLASSES.refusal(Optional.of("urgent"), "alice", false));
    assertEquals(Optional.empty(), CLASSES.refusal(Optional.of("urgent"), "bob", true));
    assertEquals(Optional.empty(), CLASSES.refusal(Optional.empty(), "bob", false));
    assertEquals(Optional.empty(), CLASSES.refusal(Optional.of("batch"), "bob", false));
    String refused = CLASSES.refusal(Optional.of("urgent"), "bob", false).orElseThrow();
    assertTrue(refused.contains("'urgent'") && refused.contains("queue.urgent.users"), refused);
    String unknown = CLASSES.refusal(Optional.of("express"), "bob", false).orElseThrow();
    assertTrue(unknown.contains("'express'") && unknown.contains("urgent, normal, batch"), unknown);
    assertEquals(NORMAL, CLASSES.rank(Optional.of("removed-since")));
    assertEquals(List.of(0, 1, 2), List.of(URGENT, NORMAL, BATCH));
  }
}
