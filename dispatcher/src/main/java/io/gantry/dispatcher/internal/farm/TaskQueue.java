package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.farm.TaskPriority;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.Map;

/**
 * The farm's work queue: every ready HIGH task before any NORMAL one, first come first served
 * within a priority. A task whose launcher vanished goes back to the front of its priority: it has
 * already waited its turn once.
 */
final class TaskQueue {
  private final Map<TaskPriority, ArrayDeque<FarmTask>> byPriority =
      new EnumMap<>(TaskPriority.class);

  TaskQueue() {
    for (TaskPriority p : TaskPriority.values()) {
      byPriority.put(p, new ArrayDeque<>());
    }
  }

  void add(FarmTask t) {
    byPriority.get(t.priority()).addLast(t);
  }

  void requeue(FarmTask t) {
    byPriority.get(t.priority()).addFirst(t);
  }

  /** The next task to hand out, or null when none is ready. */
  FarmTask poll() {
    for (TaskPriority p : TaskPriority.values()) { // declaration order: HIGH first
      FarmTask t = byPriority.get(p).pollFirst();
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  int size() {
    return byPriority.values().stream().mapToInt(ArrayDeque::size).sum();
  }
}
