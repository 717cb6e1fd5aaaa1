package io.gantry.dispatcher.internal.wire;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import jdk.net.ExtendedSocketOptions;

/**
 * How the dispatcher notices a launcher whose host is lost (crashed, unplugged: it sends nothing
 * more, not even a TCP reset) while the launcher runs a long task and has nothing to say: TCP
 * keepalive on each accepted connection, with Linux's defaults (first probe after 2 hours idle,
 * then 9 probes 75 s apart; tcp(7)) cut to a probe after {@link #IDLE} idle, then {@link #COUNT}
 * probes {@link #INTERVAL} apart. The launcher's kernel answers the probes whatever its program
 * does, so a busy task is never taken for a lost one; once the last probe goes unanswered the
 * kernel fails the connection (ETIMEDOUT), its read reports the error, and the farm or session
 * treats the launcher as one whose connection closed (the task is run again elsewhere). So a lost
 * host is noticed about {@code IDLE + COUNT x INTERVAL} = 11 s after it last answered, the same
 * bound as Open MPI's own link to a host ({@code io.gantry.dispatcher.SshLaunchAgent}); no change
 * to the wire protocol is needed (docs/reliability.md, "Lost nodes").
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
}
