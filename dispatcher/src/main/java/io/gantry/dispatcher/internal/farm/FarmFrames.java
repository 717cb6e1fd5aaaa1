package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.internal.wire.Frames;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;

/**
 * The farm's frames of the launcher wire protocol (docs/task-farms.md): TASK out, REQUEST (with the
 * last task's report) in.
 */
public final class FarmFrames {
  static final byte TASK = 5;

  /**
   * The largest frame a farm launcher may send: a REQUEST with the largest output and a long host
   * name. Anything larger is a broken or hostile peer.
   */
  static final int MAX_INBOUND = 128 * 1024;

  private FarmFrames() {}

  /** A TASK frame; {@code wallMillis} 0 means no limit. */
  static ByteBuffer task(FarmTask t, int attempt, long wallMillis) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    Frames.putLong(out, t.id());
    Frames.putInt(out, attempt);
    Frames.putLong(out, wallMillis);
    Frames.putString(out, t.executable());
    Frames.putInt(out, t.arguments().size());
    t.arguments().forEach(a -> Frames.putString(out, a));
    Frames.putInt(out, t.environment().size());
    for (Map.Entry<String, String> e : t.environment().entrySet()) {
      Frames.putString(out, e.getKey() + "=" + e.getValue());
    }
    return Frames.frame(TASK, out.toByteArray());
  }

  /**
   * What a REQUEST reports of the task the launcher ran last.
   *
   * @param how how it ended, as the wire codes it ({@link
   *     io.gantry.dispatcher.farm.TaskEnd#ofWire})
   */
  public record TaskReport(
      long id,
      int attempt,
      int how,
      int code,
      long startMillis,
      long durationMicros,
      String output) {}

  /**
   * Reads a REQUEST's payload past its type byte: the report of the task run last, or empty for a
   * launcher's first request. Throws {@link java.nio.BufferUnderflowException} when it ends early
   * or its output's length runs past its end (the loop closes the connection).
   */
  public static Optional<TaskReport> request(ByteBuffer payload) {
    if (payload.get() == 0) {
      return Optional.empty();
    }
    long id = payload.getLong();
    int attempt = payload.getInt();
    int how = payload.get() & 0xff;
    int code = payload.getInt();
    long startMillis = payload.getLong();
    long durationMicros = payload.getLong();
    String output = Frames.string(payload);
    return Optional.of(new TaskReport(id, attempt, how, code, startMillis, durationMicros, output));
  }
}
