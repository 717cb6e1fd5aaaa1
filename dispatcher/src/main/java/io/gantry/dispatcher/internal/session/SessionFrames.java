package io.gantry.dispatcher.internal.session;

import io.gantry.dispatcher.session.WorkerProgram;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The session messages of the launcher wire protocol (docs/task-farms.md, "Sessions"), beside the
 * farm's HELLO, WELCOME, REFUSE, REQUEST and DONE ({@link
 * io.gantry.dispatcher.internal.farm.Frames}).
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
    byte[] body = out.toByteArray();
    ByteBuffer b = ByteBuffer.allocate(5 + body.length);
    b.putInt(1 + body.length).put(WORKER).put(body);
    return b.flip();
  }

  /** One MESSAGES frame for {@code batch}, whose lines are already escaped. */
  static ByteBuffer messages(List<SessionMessages.Msg> batch) {
    int size = 5 + 4;
    for (SessionMessages.Msg m : batch) {
      size += 12 + m.line.length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putInt(size - 4).put(MESSAGES).putInt(batch.size());
    for (SessionMessages.Msg m : batch) {
      b.putLong(m.id).putInt(m.line.length).put(m.line);
    }
    return b.flip();
  }

  private static void putInt(ByteArrayOutputStream out, int v) {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }

  private static void putString(ByteArrayOutputStream out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    putInt(out, b.length);
    out.write(b, 0, b.length);
  }
}
