package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmTask;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.ArrayDeque;

/**
 * One launcher's connection, as the dispatch loop sees it: bytes in (assembled into frames), frames
 * out (queued until the socket takes them), and where the launcher is in the protocol. Touched by
 * the loop's thread only.
 */
final class LauncherConnection {
  enum Phase {
    /** Connected, HELLO not yet received. */
    GREETING,
    /** Asked for work, waiting for a task (or DONE). */
    WAITING,
    /** Running {@link #task}. */
    RUNNING,
    /** Told DONE or REFUSE; closed once its output is sent. */
    CLOSING
  }

  final SocketChannel channel;
  final SelectionKey key;
  final Instant helloDeadline;
  private ByteBuffer in = ByteBuffer.allocate(512);
  private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
  Phase phase = Phase.GREETING;
  String host = "";
  long pid;
  FarmTask task;
  int attempt;

  LauncherConnection(SocketChannel channel, SelectionKey key, Instant helloDeadline) {
    this.channel = channel;
    this.key = key;
    this.helloDeadline = helloDeadline;
  }

  /**
   * Reads what the socket has; returns the complete frames' payloads (type byte first), or null
   * when the peer closed. Throws {@link ProtocolException} for a frame too large or empty.
   */
  java.util.List<ByteBuffer> read() throws IOException {
    java.util.List<ByteBuffer> frames = new java.util.ArrayList<>(1);
    for (; ; ) {
      if (!in.hasRemaining()) {
        grow(in.capacity() * 2);
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

  private void extract(java.util.List<ByteBuffer> frames) throws ProtocolException {
    in.flip();
    while (in.remaining() >= 4) {
      int length = in.getInt(in.position());
      if (length < 1 || length > Frames.MAX_INBOUND) {
        throw new ProtocolException("a frame of " + length + " bytes");
      }
      if (in.remaining() < 4 + length) {
        if (in.capacity() < 4 + length) {
          in.compact();
          grow(4 + length);
          in.flip();
        }
        break;
      }
      byte[] payload = new byte[length];
      in.position(in.position() + 4);
      in.get(payload);
      frames.add(ByteBuffer.wrap(payload));
    }
    in.compact();
  }

  private void grow(int capacity) {
    ByteBuffer bigger = ByteBuffer.allocate(Math.max(capacity, in.capacity()));
    in.flip();
    bigger.put(in);
    in = bigger;
  }

  void send(ByteBuffer frame) {
    out.addLast(frame);
  }

  boolean hasOutput() {
    return !out.isEmpty();
  }

  /** Writes what the socket takes now; returns true when everything queued was sent. */
  boolean flush() throws IOException {
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

  String name() {
    return host.isEmpty()
        ? String.valueOf(channel.socket().getRemoteSocketAddress())
        : host + ":" + pid;
  }

  /** A launcher that broke the protocol. */
  static final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String what) {
      super(what);
    }
  }
}
