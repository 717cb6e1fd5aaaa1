package io.gantry.dispatcher.internal.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One launcher's connection as a {@link WireLoop} sees it: bytes in (assembled into frames), frames
 * out (queued until the socket takes them), and whether its HELLO was accepted. Touched by the
 * loop's thread only.
 *
 * <p>Its input is a {@link FrameBuffer}: bounded before authentication, grown only by what arrived.
 */
public class Connection {
  public final SocketChannel channel;
  public final SelectionKey key;
  private final Instant helloDeadline;
  private final FrameBuffer in;
  private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
  private boolean authenticated;
  private boolean hangUpWhenSent;
  private long lastHeardNanos = System.nanoTime();

  private String host = "";
  private long pid;

  protected Connection(Wiring w) {
    this.channel = w.channel;
    this.key = w.key;
    this.helloDeadline = w.helloDeadline;
    this.in = new FrameBuffer(w.maxFrame, w.bufferBytes);
  }

  /** What a {@link WireLoop} hands a new connection; opaque to the protocols. */
  public static final class Wiring {
    final SocketChannel channel;
    final SelectionKey key;
    final Instant helloDeadline;
    final int maxFrame;
    final AtomicLong bufferBytes;

    Wiring(
        SocketChannel channel,
        SelectionKey key,
        Instant helloDeadline,
        int maxFrame,
        AtomicLong bufferBytes) {
      this.channel = channel;
      this.key = key;
      this.helloDeadline = helloDeadline;
      this.maxFrame = maxFrame;
      this.bufferBytes = bufferBytes;
    }
  }

  public final boolean authenticated() {
    return authenticated;
  }

  /** Its HELLO was accepted, from the launcher of {@code pid} on {@code host}. */
  final void authenticate(String host, long pid) {
    this.host = host;
    this.pid = pid;
    authenticated = true;
  }

  /** The launcher's host (control characters replaced, at most 255 characters), once welcomed. */
  public final String host() {
    return host;
  }

  /** The launcher's process id, once welcomed. */
  public final long pid() {
    return pid;
  }

  /** Whether nothing at all arrived from the launcher for longer than {@code limitNanos}. */
  final boolean silentFor(long nowNanos, long limitNanos) {
    return nowNanos - lastHeardNanos > limitNanos;
  }

  final boolean helloOverdue(Instant now) {
    return !authenticated && now.isAfter(helloDeadline);
  }

  /** Has the connection closed once everything queued is sent (after REFUSE or a farm's DONE). */
  public final void hangUpWhenSent() {
    hangUpWhenSent = true;
  }

  final boolean hangsUpWhenSent() {
    return hangUpWhenSent;
  }

  /**
   * Reads what the socket has; returns the complete frames' payloads (type byte first), or null
   * when the peer closed. Throws {@link ProtocolException} for a frame too large or empty.
   */
  final List<ByteBuffer> read() throws IOException {
    List<ByteBuffer> frames = new ArrayList<>(1);
    in.extract(frames, authenticated);
    for (; ; ) {
      if (!authenticated && !frames.isEmpty()) {
        return frames; // the HELLO first: what may follow is judged once it was accepted
      }
      int n = channel.read(in.space(authenticated));
      if (n < 0) {
        return null;
      }
      if (n > 0) {
        lastHeardNanos = System.nanoTime(); // any byte shows the launcher alive, a heartbeat or not
      }
      in.extract(frames, authenticated);
      if (n == 0) {
        return frames;
      }
    }
  }

  /** The buffer leaves the count when the connection is dropped. */
  final void released() {
    in.release();
  }

  public final void send(ByteBuffer frame) {
    out.addLast(frame);
  }

  public final boolean hasOutput() {
    return !out.isEmpty();
  }

  /** Writes what the socket takes now; returns true when everything queued was sent. */
  final boolean flush() throws IOException {
    while (!out.isEmpty()) {
      ByteBuffer b = out.peekFirst();
      channel.write(b);
      if (b.hasRemaining()) {
        return false;
      }
      out.pollFirst();
    }
    return true;
  }

  /** How logs name it: host:pid once welcomed, the peer's address before. */
  public String name() {
    return host.isEmpty()
        ? String.valueOf(channel.socket().getRemoteSocketAddress())
        : host + ":" + pid;
  }

  /** A launcher that broke the protocol. */
  public static final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String what) {
      super(what);
    }
  }
}
