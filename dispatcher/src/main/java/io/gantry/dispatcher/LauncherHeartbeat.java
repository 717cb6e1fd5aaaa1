package io.gantry.dispatcher;

import java.time.Duration;

/**
 * How a farm's or session's dispatcher tells a lost launcher from a busy one (docs/task-farms.md,
 * "The launcher wire protocol"; docs/reliability.md, "Lost nodes"). The dispatcher names an
 * interval in its WELCOME; gantry-launcher then sends a HEARTBEAT frame at that interval from a
 * thread of its own, whatever its task or worker does; a connection from which nothing at all was
 * heard for {@link #MISSED_BEATS} intervals is ended, and its task or messages go to the launchers
 * left, as when a connection closes. This does not depend on the kernel: a host that vanished
 * without a FIN or a reset, with data of ours unacknowledged, is noticed as surely as an idle one.
 */
public final class LauncherHeartbeat {
  /**
   * Every 2 s: a few bytes a second per launcher at most, and a lost host noticed after {@link
   * #MISSED_BEATS} x 2 = 10 s, in line with how soon mpirun notices a lost host (11 s, {@link
   * SshLaunchAgent}).
   */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);

  /**
   * Beats missed in a row before a launcher counts as lost. Five, not fewer: a beat delayed by a
   * loaded node's scheduler or by TCP retransmitting a dropped packet (200 ms, then doubling) must
   * not end a healthy launcher, whose running task would then run again elsewhere.
   */
  public static final int MISSED_BEATS = 5;

  /** The shortest and longest interval gantry-launcher accepts in a WELCOME. */
  public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

  public static final Duration MAX_INTERVAL = Duration.ofSeconds(60);

  private LauncherHeartbeat() {}

  /** How long a launcher may be silent before its connection is ended. */
  public static Duration silenceLimit(Duration interval) {
    return interval.multipliedBy(MISSED_BEATS);
  }

  /** Refuses an interval the launcher would not accept. */
  public static void check(Duration interval) {
    if (interval == null
        || interval.compareTo(MIN_INTERVAL) < 0
        || interval.compareTo(MAX_INTERVAL) > 0) {
      throw new IllegalArgumentException(
          "the heartbeat interval must be "
              + MIN_INTERVAL
              + " to "
              + MAX_INTERVAL
              + ", was "
              + interval);
    }
  }
}
