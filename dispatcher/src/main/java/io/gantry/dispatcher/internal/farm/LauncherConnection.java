package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.internal.wire.Connection;

/**
 * One farm launcher's connection: where the launcher is in the farm's protocol and the task it
 * runs. Touched by the loop's thread only.
 */
final class LauncherConnection extends Connection {
  enum Phase {
    /** Connected, HELLO not yet accepted. */
    GREETING,
    /** Asked for work, waiting for a task (or DONE). */
    WAITING,
    /** Running {@link #task}. */
    RUNNING,
    /** Told DONE or REFUSE; closed once its output is sent. */
    CLOSING
  }

  Phase phase = Phase.GREETING;
  FarmTask task;
  int attempt;

  LauncherConnection(Wiring wiring) {
    super(wiring);
  }
}
