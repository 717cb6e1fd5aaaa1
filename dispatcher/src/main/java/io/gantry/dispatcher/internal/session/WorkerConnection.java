package io.gantry.dispatcher.internal.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One session launcher's connection as the loop sees it: frames in and out, where the launcher is
 * in the protocol, and the messages its worker holds (oldest first: answers come in this order).
 * Touched by the loop's thread only.
 */
final class WorkerConnection {
  enum Phase {
    /** Connected, HELLO not yet received. */
    GREETING,
    /** Welcomed; its first REQUEST is answered with WORKER. */
    ASKING,
    /** Its worker runs (or is being started): messages go to it. */
    RELAYING,
    /** Told DONE (retired or the session closed); closed once the launcher hangs up. */
    CLOSING
  }

  final SocketChannel channel;
  final SelectionKey key;
  final Instant helloDeadline;
  final ArrayDeque<SessionMessages.Msg> inFlight = new ArrayDeque<>();
  private ByteBuffer in = ByteBuffer.allocate(64 * 1024);
  private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
  Phase phase = Phase.GREETING;
  String host = "";
  long pid;
  int number;

  WorkerConnection(SocketChannel channel, SelectionKey key, Instant helloDeadline) {
    this.channel = channel;
    this.key = key;
    this.helloDeadline = helloDeadline;
  }

  /** The complete frames' payloads read now (type byte first), or null when the peer closed. */
  List<ByteBuffer> read() throws IOException {
    List<ByteBuffer> frames = new ArrayList<>(2);
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

  private void extract(List<ByteBuffer> frames) throws ProtocolException {
    in.flip();
    while (in.remaining() >= 4) {
      int length = in.getInt(in.position());
      if (length < 1 || length > SessionFrames.MAX_INBOUND) {
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

  /** Writes what the socket takes now; true when everything queued was sent. */
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
        : "worker " + number + " (" + host + ":" + pid + ")";
  }

  /** A launcher that broke the protocol. */
  static final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String what) {
      super(what);
    }
  }
}
