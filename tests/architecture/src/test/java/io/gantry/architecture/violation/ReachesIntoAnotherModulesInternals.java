package io.gantry.architecture.violation;

import io.gantry.staging.internal.bgzf.CompressedFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What the boundary rule forbids, kept here so that a test can show the rule fails on it (a rule
 * that never fails would prove nothing). Only the architecture tests compile it; no module sees it.
 */
public final class ReachesIntoAnotherModulesInternals {
  private ReachesIntoAnotherModulesInternals() {}

  static boolean compressed(Path file) throws IOException {
    return CompressedFiles.isGzip(file);
  }
}
