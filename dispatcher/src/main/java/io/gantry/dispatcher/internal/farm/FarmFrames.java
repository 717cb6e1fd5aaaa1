package io.gantry.dispatcher.internal.farm;

import io.gantry.dispatcher.farm.FarmTask;
import io.gantry.dispatcher.internal.wire.Frames;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;

/** The farm's frame of the launcher wire protocol (docs/task-farms.md): TASK. */
final class FarmFrames {
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
}
