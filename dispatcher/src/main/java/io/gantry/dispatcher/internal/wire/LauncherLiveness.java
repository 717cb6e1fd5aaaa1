package io.gantry.dispatcher.internal.wire;

import io.gantry.dispatcher.LauncherHeartbeat;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import jdk.net.ExtendedSocketOptions;

/**
 * How the dispatcher notices a launcher whose host is lost (crashed, unplugged: it sends nothing
 * more, not even a TCP reset). The bound is the protocol's heartbeat ({@link LauncherHeartbeat}): a
 * connection silent for {@link #silenceLimitNanos} is ended by {@link WireLoop} and treated as one
 * that closed (its task or messages go to the launchers left). It does not depend on the kernel:
 * TCP keepalive alone did not suffice, since its probes are not sent while data of ours is
 * unacknowledged (TCP then retransmits for about 15 minutes, and Java 17 does not expose {@code
 * TCP_USER_TIMEOUT}; docs/reliability.md, "Lost nodes").
 *
 * <p>Keepalive stays on as well, cut from Linux's defaults (first probe after 2 hours idle, then 9
 * probes 75 s apart; tcp(7)) to a probe after {@link #IDLE} idle, then {@link #COUNT} probes {@link
 * #INTERVAL} apart: it costs nothing and ends a dead idle connection in about 11 s even where the
 * loop has not yet looked at its silence.
 */
final class LauncherLiveness {
  static final Duration IDLE = Duration.ofSeconds(5);
  static final Duration INTERVAL = Duration.ofSeconds(2);
  static final int COUNT = 3;

  private LauncherLiveness() {}

  /** Turns on and tunes keepalive on an accepted launcher connection. */
  static void watch(SocketChannel ch) throws IOException {
    ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
    ch.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, (int) IDLE.toSeconds());
    ch.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, (int) INTERVAL.toSeconds());
    ch.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, COUNT);
  }

  /** How long an accepted launcher may be silent, for a heartbeat of {@code interval}. */
  static long silenceLimitNanos(Duration interval) {
    return LauncherHeartbeat.silenceLimit(interval).toNanos();
  }
}
