package io.gantry.dispatcher.internal.workersession;

import static io.gantry.dispatcher.internal.wire.Frames.putInt;
import static io.gantry.dispatcher.internal.wire.Frames.putString;

import io.gantry.dispatcher.internal.wire.Connection.ProtocolException;
import io.gantry.dispatcher.internal.wire.Frames;
import io.gantry.dispatcher.workersession.WorkerProgram;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The session messages of the launcher wire protocol (docs/task-farms.md, "Sessions"), beside the
 * common HELLO, WELCOME, REFUSE, REQUEST and DONE ({@link Frames}).
 */
final class SessionFrames {
  static final byte WORKER = 7;
  static final byte MESSAGES = 8;
  static final byte ANSWERS = 9;
  static final byte WORKER_ENDED = 10;

  /** A launcher's largest frame: an ANSWERS frame is sent once it holds 1 MiB, plus one line. */
  static final int MAX_INBOUND = 4 << 20;

  private SessionFrames() {}

  static ByteBuffer worker(WorkerProgram p, int lineLimit) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    putInt(out, lineLimit);
    putString(out, p.executable());
    putInt(out, p.arguments().size());
    p.arguments().forEach(a -> putString(out, a));
    putInt(out, p.environment().size());
    for (Map.Entry<String, String> e : p.environment().entrySet()) {
      putString(out, e.getKey() + "=" + e.getValue());
    }
    return Frames.frame(WORKER, out.toByteArray());
  }

  /** One MESSAGES frame for {@code batch}, whose lines are already escaped. */
  static ByteBuffer messages(List<SessionMessages.Msg> batch) {
    int body = 4;
    for (SessionMessages.Msg m : batch) {
      body += 12 + m.line.length;
    }
    ByteBuffer b = Frames.start(MESSAGES, body).putInt(batch.size());
    for (SessionMessages.Msg m : batch) {
      b.putLong(m.id).putInt(m.line.length).put(m.line);
    }
    return b.flip();
  }

  /**
   * One answer of an ANSWERS frame: the message's id, whether the line was cut, the line unescaped
   * ({@link LineEscape}).
   */
  record Answer(long id, boolean truncated, String line) {}

  /** The smallest answer on the wire: id, truncated flag, line length. */
  private static final int ANSWER_HEAD = 8 + 1 + 4;

  /**
   * Reads an ANSWERS payload past its type byte, whole, before any answer is acted on: a frame that
   * is cut or counts more answers than it holds completes none of them. Throws {@link
   * java.nio.BufferUnderflowException} when it ends early, {@link ProtocolException} for a count
   * that cannot be.
   */
  static List<Answer> answers(ByteBuffer payload) throws ProtocolException {
    int n = payload.getInt();
    if (n < 0 || n > payload.remaining() / ANSWER_HEAD) {
      throw new ProtocolException(
          "an ANSWERS frame counting " + n + " answers in " + payload.remaining() + " bytes");
    }
    List<Answer> answers = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long id = payload.getLong();
      boolean truncated = payload.get() != 0;
      answers.add(new Answer(id, truncated, LineEscape.unescape(Frames.bytes(payload))));
    }
    return answers;
  }

  /** WORKER_ENDED: how the worker ended (the wire's code) and its status or signal. */
  record WorkerEnded(int how, int code) {}

  /** Reads a WORKER_ENDED payload past its type byte. */
  static WorkerEnded workerEnded(ByteBuffer payload) {
    int how = payload.get() & 0xff;
    return new WorkerEnded(how, payload.getInt());
  }
}
