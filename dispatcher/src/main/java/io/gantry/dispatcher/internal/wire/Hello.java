package io.gantry.dispatcher.internal.wire;

import java.nio.ByteBuffer;

/**
 * A launcher's HELLO (docs/task-farms.md): protocol version, the job's secret, its host name and
 * process id. Decoded apart from the loop that judges it, so that it can be fed any bytes (the fuzz
 * test of the wire package).
 */
public final class Hello {
  private final int version;
  private final byte[] secret;
  private final String host;
  private final long pid;

  private Hello(int version, byte[] secret, String host, long pid) {
    this.version = version;
    this.secret = secret;
    this.host = host;
    this.pid = pid;
  }

  /**
   * Reads a HELLO's payload past its type byte. Throws {@link java.nio.BufferUnderflowException}
   * when it ends early or a string's length runs past its end (the loop closes the connection).
   */
  public static Hello read(ByteBuffer payload) {
    int version = payload.getInt();
    byte[] secret = Frames.bytes(payload);
    String host = Frames.string(payload);
    long pid = Integer.toUnsignedLong(payload.getInt());
    return new Hello(version, secret, host, pid);
  }

  public int version() {
    return version;
  }

  /** The secret offered, as bytes (compared in constant time). */
  public byte[] secret() {
    return secret.clone();
  }

  /** The host name as sent: neither cut nor cleaned. */
  public String host() {
    return host;
  }

  /**
   * The host name as logs and results show it: at most 255 characters, cut between characters
   * (never inside a surrogate pair), every control character replaced by {@code ?}: C0 and DEL, and
   * C1 too (U+0085 is a line break to some log readers, U+009B a terminal's CSI). A launcher
   * chooses its name, and it lands in logs and in the farm's results.
   */
  public String shownHost() {
    String cut = host;
    if (host.length() > 255) {
      cut = host.substring(0, Character.isHighSurrogate(host.charAt(254)) ? 254 : 255);
    }
    return cut.replaceAll("\\p{Cc}", "?");
  }

  public long pid() {
    return pid;
  }
}
