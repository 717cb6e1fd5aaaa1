package io.gantry.dispatcher.internal.farm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.gantry.dispatcher.internal.wire.Frames;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Fuzz test of the farm's REQUEST frame, what a farm launcher sends after each task
 * (docs/reliability.md). Without JAZZER_FUZZ the kept inputs
 * (src/test/resources/io/gantry/dispatcher/internal/farm/FarmFramesFuzzTestInputs/request/) run
 * once.
 */
class FarmFramesFuzzTest {
  /**
   * Any payload: a report, no report, or a payload too short ({@link BufferUnderflowException},
   * which the loop turns into "a truncated message"), nothing else. A report read is exactly the
   * bytes docs/task-farms.md lays out for it, as gantry-launcher writes them.
   */
  @FuzzTest(maxDuration = "120s")
  void request(byte[] payload) {
    ByteBuffer f = ByteBuffer.wrap(payload);
    Optional<FarmFrames.TaskReport> report;
    try {
      report = FarmFrames.request(f);
    } catch (BufferUnderflowException cut) {
      return;
    }
    byte[] read = Arrays.copyOf(payload, f.position());
    if (report.isEmpty()) {
      assertEquals(1, read.length);
      assertEquals(0, read[0]);
      return;
    }
    FarmFrames.TaskReport r = report.get();
    byte[] output =
        Arrays.copyOfRange(read, 38, read.length); // past 34 bytes of fields and the length
    if (!isUtf8(output)) {
      return; // read with replacement characters: not written back the same
    }
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    again.write(read[0]); // any non-zero byte: a report follows
    Frames.putLong(again, r.id());
    Frames.putInt(again, r.attempt());
    again.write(r.how());
    Frames.putInt(again, r.code());
    Frames.putLong(again, r.startMillis());
    Frames.putLong(again, r.durationMicros());
    Frames.putString(again, r.output());
    assertArrayEquals(read, again.toByteArray());
  }

  private static boolean isUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
