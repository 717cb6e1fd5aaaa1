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
 * <p>The input buffer starts small and doubles only when the bytes that arrived fill it, never to a
 * size a frame's length announces: a peer that announces a large frame and sends nothing costs the
 * dispatcher nothing. Before authentication no frame larger than {@link Frames#MAX_HELLO} is
 * accepted and at most one frame is taken per read.
 */
public class Connection {
  private static final int INITIAL_BUFFER = 512;

  public final SocketChannel channel;
  public final SelectionKey key;
  private final Instant helloDeadline;
  private final int maxFrame;
  private final AtomicLong bufferBytes;
  private ByteBuffer in = ByteBuffer.allocate(INITIAL_BUFFER);
  private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
  private boolean authenticated;
  private boolean hangUpWhenSent;

  private String host = "";
  private long pid;

  protected Connection(Wiring w) {
    this.channel = w.channel;
    this.key = w.key;
    this.helloDeadline = w.helloDeadline;
    this.maxFrame = w.maxFrame;
    this.bufferBytes = w.bufferBytes;
    bufferBytes.addAndGet(INITIAL_BUFFER);
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
    extract(frames);
    for (; ; ) {
      if (!authenticated && !frames.isEmpty()) {
        return frames; // the HELLO first: what may follow is judged once it was accepted
      }
      if (!in.hasRemaining()) {
        grow();
      }
      int n = channel.read(in);
      if (n < 0) {
        return null;
      }
      extract(frames);
      if (n == 0) {
        return frames;
      }
    }
  }

  private int limit() {
    return authenticated ? maxFrame : Frames.MAX_HELLO;
  }

  private void extract(List<ByteBuffer> frames) throws ProtocolException {
    in.flip();
    try {
      while (in.remaining() >= 4 && (authenticated || frames.isEmpty())) {
        int length = in.getInt(in.position());
        if (length < 1 || length > limit()) {
          throw new ProtocolException(
              "a frame of " + length + " bytes" + (authenticated ? "" : " before HELLO"));
        }
        if (in.remaining() < 4 + length) {
          break;
        }
        byte[] payload = new byte[length];
        in.position(in.position() + 4);
        in.get(payload);
        frames.add(ByteBuffer.wrap(payload));
      }
    } finally {
      in.compact();
    }
  }

  /** Doubles the full input buffer, up to what the largest allowed frame needs. */
  private void grow() throws ProtocolException {
    int most = 4 + limit();
    if (in.capacity() >= most) {
      throw new ProtocolException("more than a frame's worth of bytes unread"); // cannot happen
    }
    int capacity = (int) Math.min((long) in.capacity() * 2, most);
    ByteBuffer bigger = ByteBuffer.allocate(capacity);
    in.flip();
    bigger.put(in);
    bufferBytes.addAndGet(capacity - (long) in.capacity());
    in = bigger;
  }

  /** The buffer leaves the count when the connection is dropped. */
  final void released() {
    bufferBytes.addAndGet(-in.capacity());
    in = ByteBuffer.allocate(0);
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
