package io.gantry.dispatcher.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Signals a whole process tree. The tree is snapshotted before any signal is sent: once the root
 * (mpirun, or a shell) dies, its children are re-parented to init and can no longer be found by
 * walking down from the root, so a later look would miss exactly the processes that survived.
 */
final class ProcessTree {
  private ProcessTree() {}

  /**
   * The root, then every descendant. Signals go out in this order: a parent that is stopped first
   * cannot react to its children dying (a shell would run its next command, a supervisor would
   * restart them).
   */
  static List<ProcessHandle> snapshot(ProcessHandle root) {
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(root);
    tree.addAll(root.descendants().toList());
    return tree;
  }

  /**
   * The root and its descendants down to {@code depth - 1} levels below it: the launcher's
   * wrappers.
   */
  static List<ProcessHandle> wrappers(ProcessHandle root, int depth) {
    List<ProcessHandle> level = List.of(root);
    List<ProcessHandle> all = new ArrayList<>();
    for (int d = 0; d < depth && !level.isEmpty(); d++) {
      all.addAll(level);
      level = level.stream().flatMap(ProcessHandle::children).toList();
    }
    return all;
  }

  /** The descendants of {@code root} that are not wrappers: the job's own processes. */
  static List<ProcessHandle> jobProcesses(ProcessHandle root, int wrapperDepth) {
    List<ProcessHandle> wrappers = wrappers(root, wrapperDepth);
    return root.descendants().filter(p -> !wrappers.contains(p)).toList();
  }

  /** SIGTERM to each process still alive. */
  static void terminate(List<ProcessHandle> tree) {
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
  }

  /**
   * SIGKILL to each snapshotted process still alive, and to any descendant the root started after
   * the snapshot. {@link ProcessHandle} remembers each process's start time, so a recycled pid is
   * never signalled by mistake.
   */
  static void kill(List<ProcessHandle> tree, ProcessHandle root) {
    List<ProcessHandle> targets = new ArrayList<>(tree);
    if (root.isAlive()) {
      targets.addAll(root.descendants().toList());
    }
    targets.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  /** Completes when every process of the snapshot has exited. */
  static CompletableFuture<Void> allExited(List<ProcessHandle> tree) {
    return CompletableFuture.allOf(
        tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new));
  }
}
