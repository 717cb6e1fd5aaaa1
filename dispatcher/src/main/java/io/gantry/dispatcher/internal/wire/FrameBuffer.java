package io.gantry.dispatcher.internal.wire;

import io.gantry.dispatcher.internal.wire.Connection.ProtocolException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes a launcher sent that are not yet whole frames, and their assembly into frames (a 4-byte
 * big-endian length, then that many bytes of payload). Apart from the socket so that it can be fed
 * any bytes in any pieces (the fuzz test of the wire package).
 *
 * <p>The buffer starts small and doubles only when the bytes that arrived fill it, never to a size
 * a frame's length announces: a peer that announces a large frame and sends nothing costs the
 * dispatcher nothing. Before authentication no frame larger than {@link Frames#MAX_HELLO} is
 * accepted and at most one frame is taken per read.
 */
final class FrameBuffer {
  static final int INITIAL = 512;

  private final int maxFrame;
  private final AtomicLong bufferBytes;
  private ByteBuffer in = ByteBuffer.allocate(INITIAL);

  /**
   * @param maxFrame the largest frame once authenticated
   * @param bufferBytes the count of every connection's buffer bytes, kept up to date
   */
  FrameBuffer(int maxFrame, AtomicLong bufferBytes) {
    this.maxFrame = maxFrame;
    this.bufferBytes = bufferBytes;
    bufferBytes.addAndGet(INITIAL);
  }

  /** Where the next bytes read go: the buffer, doubled first when it is full. */
  ByteBuffer space(boolean authenticated) throws ProtocolException {
    if (!in.hasRemaining()) {
      grow(authenticated);
    }
    return in;
  }

  /**
   * Moves the complete frames' payloads (type byte first) to {@code frames}; before authentication
   * only while {@code frames} is empty. Throws for a frame announced empty or too large.
   */
  void extract(List<ByteBuffer> frames, boolean authenticated) throws ProtocolException {
    in.flip();
    try {
      while (in.remaining() >= 4 && (authenticated || frames.isEmpty())) {
        int length = in.getInt(in.position());
        if (length < 1 || length > limit(authenticated)) {
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

  /** The buffer's size now, for tests. */
  int capacity() {
    return in.capacity();
  }

  private int limit(boolean authenticated) {
    return authenticated ? maxFrame : Frames.MAX_HELLO;
  }

  /** Doubles the full buffer, up to what the largest allowed frame needs. */
  private void grow(boolean authenticated) throws ProtocolException {
    int most = 4 + limit(authenticated);
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
  void release() {
    bufferBytes.addAndGet(-in.capacity());
    in = ByteBuffer.allocate(0);
  }
}
