package io.gantry.dispatcher.internal.workersession;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.dispatcher.internal.wire.Connection.ProtocolException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Fuzz test of a session launcher's frames (docs/reliability.md): ANSWERS, which carries the
 * worker's answer lines, and WORKER_ENDED. Without JAZZER_FUZZ the kept inputs
 * (src/test/resources/io/gantry/dispatcher/internal/workersession/SessionFramesFuzzTestInputs/relayed/)
 * run once.
 */
class SessionFramesFuzzTest {
  /**
   * Input: a type byte, then the frame's payload. ANSWERS gives its answers, or is refused as too
   * short ({@link BufferUnderflowException}) or for a count it cannot hold ({@link
   * ProtocolException}), nothing else, and never more answers than its bytes can carry; each line
   * unescaped is escaped and unescaped back unchanged (what the relay hands on). WORKER_ENDED reads
   * five bytes.
   */
  @FuzzTest(maxDuration = "120s")
  void relayed(byte[] input) {
    if (input.length < 1) {
      return;
    }
    ByteBuffer payload = ByteBuffer.wrap(input, 1, input.length - 1).slice();
    int size = payload.remaining();
    try {
      if (input[0] == SessionFrames.WORKER_ENDED) {
        SessionFrames.workerEnded(payload);
        assertEquals(5, payload.position());
        return;
      }
      List<SessionFrames.Answer> answers = SessionFrames.answers(payload);
      assertTrue(answers.size() <= (size - 4) / 13, answers.size() + " answers in " + size);
      for (SessionFrames.Answer a : answers) {
        assertEquals(a.line(), LineEscape.unescape(LineEscape.escape(a.line())));
      }
    } catch (BufferUnderflowException | ProtocolException refused) {
      // the loop closes the connection; the session gives its messages to another worker
    }
  }
}
