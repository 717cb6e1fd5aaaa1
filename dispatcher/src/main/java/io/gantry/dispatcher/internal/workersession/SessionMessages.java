package io.gantry.dispatcher.internal.workersession;

import io.gantry.dispatcher.farm.TaskPriority;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.Map;

/**
 * A session's work queue: every waiting HIGH message before any NORMAL one, first come first served
 * within a priority; a message whose worker died goes back to the front of its priority.
 */
final class SessionMessages {
  /** One submitted message, as the loop handles it. */
  static final class Msg {
    final long id;
    final byte[] line;
    final TaskPriority priority;
    int attempts;

    Msg(long id, byte[] line, TaskPriority priority) {
      this.id = id;
      this.line = line;
      this.priority = priority;
    }
  }

  private final Map<TaskPriority, ArrayDeque<Msg>> byPriority = new EnumMap<>(TaskPriority.class);
  private int size;

  SessionMessages() {
    for (TaskPriority p : TaskPriority.values()) {
      byPriority.put(p, new ArrayDeque<>());
    }
  }

  void add(Msg m) {
    byPriority.get(m.priority).addLast(m);
    size++;
  }

  void requeue(Msg m) {
    byPriority.get(m.priority).addFirst(m);
    size++;
  }

  /** The next message to give out, or null. */
  Msg poll() {
    for (TaskPriority p : TaskPriority.values()) { // declaration order: HIGH first
      Msg m = byPriority.get(p).pollFirst();
      if (m != null) {
        size--;
        return m;
      }
    }
    return null;
  }

  int size() {
    return size;
  }
}
