package io.gantry.dispatcher.internal.workersession;

import static io.gantry.dispatcher.internal.wire.Frames.putInt;
import static io.gantry.dispatcher.internal.wire.Frames.putString;

import io.gantry.dispatcher.internal.wire.Frames;
import io.gantry.dispatcher.workersession.WorkerProgram;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
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
}
