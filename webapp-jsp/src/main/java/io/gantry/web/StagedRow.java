package io.gantry.web;

import io.gantry.server.api.StagedFileInfo;
import java.util.Locale;

/** One file of a job's staging manifest (stage-in or stage-out), numbers formatted for people. */
public record StagedRow(
    String step,
    String source,
    String target,
    String rows,
    String bytes,
    String checksum,
    String seconds) {
  static StagedRow of(StagedFileInfo f) {
    return new StagedRow(
        text(f.step),
        text(f.source),
        text(f.target),
        f.rows == null || f.rows < 0 ? "" : String.format(Locale.ENGLISH, "%,d", f.rows),
        String.format(Locale.ENGLISH, "%,d", f.bytes),
        text(f.checksum),
        String.format(Locale.ENGLISH, "%.2f", f.seconds));
  }

  private static String text(String s) {
    return s == null ? "" : s;
  }
}
