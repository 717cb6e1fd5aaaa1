package io.gantry.dispatcher.internal.wire;

import io.gantry.dispatcher.LauncherAdmission;
import io.gantry.dispatcher.LauncherHeartbeat;
import java.time.Duration;

/**
 * What one dispatcher's listener lets in (docs/task-farms.md, "Limits on the dispatcher's port").
 *
 * @param launchers the most connections whose HELLO was accepted, at once: the job's launchers
 * @param maxFrame the largest frame an accepted launcher may send
 * @param maxUnauthenticated the most connections that have not yet said an accepted HELLO, at once;
 *     further connections wait in the listen backlog (the kernel's) until one of these leaves
 * @param helloTimeout a connection that has not said an accepted HELLO by then is closed
 * @param heartbeat the interval named in WELCOME; a launcher silent for {@link
 *     LauncherHeartbeat#silenceLimit} of it is closed
 */
public record WireLimits(
    int launchers,
    int maxFrame,
    int maxUnauthenticated,
    Duration helloTimeout,
    Duration heartbeat) {
  public WireLimits {
    if (launchers < 1) {
      throw new IllegalArgumentException("a job needs at least one launcher, was " + launchers);
    }
    if (maxFrame < Frames.MAX_HELLO) {
      throw new IllegalArgumentException("frames of " + maxFrame + " bytes cannot carry a HELLO");
    }
    LauncherAdmission.check(helloTimeout, maxUnauthenticated);
    LauncherHeartbeat.check(heartbeat);
  }
}
