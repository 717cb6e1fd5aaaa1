package io.gantry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the test servers that serve a directory on loopback ({@link HttpTestServer}, {@link
 * FtpTestServer}) share at start: the directory is made if absent, and a server that cannot start
 * fails the test with what it is and why, as an unchecked exception, so that tests start them in
 * one line.
 */
final class ServedDirectory {
  /** Starts a server on a directory that exists by now; may throw what its library throws. */
  @FunctionalInterface
  interface Start<T> {
    T on(Path root) throws Exception;
  }

  private ServedDirectory() {}

  static <T> T serve(Path root, String what, Start<T> start) {
    try {
      Files.createDirectories(root);
      return start.on(root);
    } catch (IOException e) {
      throw new UncheckedIOException(what + " did not start on " + root, e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(what + " did not start on " + root, e);
    }
  }
}
