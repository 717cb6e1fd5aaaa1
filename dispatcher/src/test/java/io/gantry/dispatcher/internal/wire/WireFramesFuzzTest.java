package io.gantry.dispatcher.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.dispatcher.internal.wire.Connection.ProtocolException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fuzz test of the launcher wire protocol's common part (docs/reliability.md): the assembly of
 * frames from what a launcher sends, in pieces of any size, the HELLO that opens every connection,
 * and the HEARTBEAT that an accepted launcher's frames are told apart from. Without JAZZER_FUZZ the
 * kept inputs
 * (src/test/resources/io/gantry/dispatcher/internal/wire/WireFramesFuzzTestInputs/frames/) run
 * once.
 */
class WireFramesFuzzTest {
  /** The largest frame once authenticated, here: larger than a HELLO, small enough to reach. */
  private static final int MAX_FRAME = 4096;

  /**
   * Input: a flags byte (bit 0: the connection is authenticated), a byte giving the size of the
   * pieces the socket hands out (1 to 256), then the bytes the launcher sent. The frames taken are
   * exactly the stream's first frames, each of an allowed length; a refusal names a length out of
   * range, at the place where the next frame starts; the buffer never holds more than a frame's
   * worth and the count of buffer bytes follows it. A HELLO decodes or is too short, and its host
   * is shown at most 255 characters long, not cut inside a character, without control characters
   * (C0 or C1). Once authenticated, a frame is a HEARTBEAT exactly when its type byte says so and
   * it has no fields; one with fields is refused.
   */
  @FuzzTest(maxDuration = "120s")
  void frames(byte[] input) {
    if (input.length < 2) {
      return;
    }
    boolean authenticated = (input[0] & 1) != 0;
    int piece = (input[1] & 0xff) + 1;
    byte[] stream = Arrays.copyOfRange(input, 2, input.length);
    int limit = authenticated ? MAX_FRAME : Frames.MAX_HELLO;
    AtomicLong count = new AtomicLong();
    FrameBuffer buffer = new FrameBuffer(MAX_FRAME, count);
    List<ByteBuffer> frames = new ArrayList<>();
    ProtocolException refused = null;
    int fed = 0;
    try {
      buffer.extract(frames, authenticated);
      while (fed < stream.length && (authenticated || frames.isEmpty())) {
        ByteBuffer space = buffer.space(authenticated);
        int n = Math.min(Math.min(piece, space.remaining()), stream.length - fed);
        space.put(stream, fed, n);
        fed += n;
        buffer.extract(frames, authenticated);
        assertTrue(buffer.capacity() <= 4 + limit, "a buffer of " + buffer.capacity());
        assertEquals(buffer.capacity(), count.get());
      }
    } catch (ProtocolException e) {
      refused = e;
    }
    ByteBuffer expected = ByteBuffer.wrap(stream);
    for (ByteBuffer frame : frames) {
      int length = expected.getInt();
      assertTrue(length >= 1 && length <= limit, "a frame of " + length + " taken");
      byte[] payload = new byte[length];
      expected.get(payload);
      assertEquals(ByteBuffer.wrap(payload), frame);
      if (payload[0] == Frames.HELLO) {
        hello(ByteBuffer.wrap(payload, 1, length - 1));
      }
      if (authenticated) {
        heartbeat(payload);
      }
    }
    if (refused != null) {
      int next = expected.remaining() >= 4 ? expected.getInt(expected.position()) : 0;
      assertTrue(expected.remaining() >= 4 && (next < 1 || next > limit), refused.getMessage());
      assertEquals(
          "a frame of " + next + " bytes" + (authenticated ? "" : " before HELLO"),
          refused.getMessage());
    } else if (authenticated) {
      // nothing whole left behind: what remains is less than the next frame
      boolean whole =
          expected.remaining() >= 4
              && expected.remaining() >= 4 + (long) expected.getInt(expected.position());
      assertFalse(whole, "a whole frame was left unread");
    }
    buffer.release();
    assertEquals(0, count.get());
  }

  private static void heartbeat(byte[] payload) {
    ByteBuffer frame = ByteBuffer.wrap(payload);
    try {
      assertEquals(payload[0] == Frames.HEARTBEAT, Frames.heartbeat(frame));
      assertTrue(payload[0] != Frames.HEARTBEAT || payload.length == 1, "fields let through");
    } catch (ProtocolException e) {
      assertTrue(payload[0] == Frames.HEARTBEAT && payload.length > 1, e.getMessage());
    }
    assertEquals(0, frame.position(), "the frame left for the protocol as it came");
  }

  private static void hello(ByteBuffer payload) {
    Hello said;
    try {
      said = Hello.read(payload);
    } catch (BufferUnderflowException cut) {
      return; // the loop closes the connection: "a truncated message"
    }
    String shown = said.shownHost();
    assertTrue(shown.length() <= 255, shown);
    assertTrue(shown.codePoints().noneMatch(Character::isISOControl), shown);
    if (said.host().length() <= 255) {
      assertEquals(said.host().length(), shown.length());
    } else {
      assertFalse(Character.isHighSurrogate(shown.charAt(shown.length() - 1)), "a pair cut");
    }
  }
}
