package io.gantry.jsdl;

import java.util.Locale;
import java.util.Optional;

/**
 * How a job's program receives a file it streams from a running producer ({@code gx:Stream} in a
 * {@code DataStaging} whose Source is {@code gantry-job:PRODUCER/FILE}, docs/workflows.md).
 */
public enum StreamDelivery {
  /**
   * The staged name is a FIFO: the program reads the producer's bytes through it, in order and
   * once, with the pipe's back-pressure; the server keeps what the program has not read yet on
   * disk.
   */
  PIPE,
  /**
   * The staged name is a regular file that grows as the producer writes: the program follows it to
   * its end itself (a blocked-gzip file, to its end-of-file block).
   */
  FILE;

  /** The element's text as written ({@code pipe}, {@code file}); empty for anything else. */
  public static Optional<StreamDelivery> of(String text) {
    return switch (text == null ? "" : text.strip()) {
      case "pipe" -> Optional.of(PIPE);
      case "file" -> Optional.of(FILE);
      default -> Optional.empty();
    };
  }

  /** The name as a job description writes it. */
  public String written() {
    return name().toLowerCase(Locale.ROOT);
  }
}
