package io.gantry.dispatcher.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about the user the server runs as. */
public final class CurrentUser {
  private CurrentUser() {}

  /** Whether this process runs as uid 0; Open MPI then needs explicit consent to start. */
  public static boolean isRoot() {
    try {
      // /proc/self belongs to this process's real uid
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }
}
