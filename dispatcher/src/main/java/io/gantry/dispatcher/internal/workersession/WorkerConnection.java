package io.gantry.dispatcher.internal.workersession;

import io.gantry.dispatcher.internal.wire.Connection;
import java.util.ArrayDeque;

/**
 * One session launcher's connection: where the launcher is in the session's protocol and the
 * messages its worker holds (oldest first: answers come in this order). Touched by the loop's
 * thread only.
 */
final class WorkerConnection extends Connection {
  enum Phase {
    /** Connected, HELLO not yet accepted. */
    GREETING,
    /** Welcomed; its first REQUEST is answered with WORKER. */
    ASKING,
    /** Its worker runs (or is being started): messages go to it. */
    RELAYING,
    /** Told DONE (retired or the session closed); closed once the launcher hangs up. */
    CLOSING
  }

  final ArrayDeque<SessionMessages.Msg> inFlight = new ArrayDeque<>();
  Phase phase = Phase.GREETING;
  int number;

  WorkerConnection(Wiring wiring) {
    super(wiring);
  }

  @Override
  public String name() {
    return host().isEmpty() ? super.name() : "worker " + number + " (" + host() + ":" + pid() + ")";
  }
}
