package io.gantry.dispatcher.farm;

/**
 * A task's priority in its farm's work queue: every ready HIGH task is handed out before any NORMAL
 * one; within a priority, first come first served. The paper's "message type" field.
 */
public enum TaskPriority {
  HIGH,
  NORMAL
}
