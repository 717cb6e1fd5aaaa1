package io.gantry.staging;

/**
 * JSDL's {@code SQLOutputFileCreationFlag} / {@code CreationFlag}: what to do when the output file
 * exists.
 */
public enum CreationFlag {
  /** Replace the file (atomically: readers see the old or the new file, never a mix). */
  OVERWRITE,
  /** Add rows after the existing ones, without a second header; the header must match. */
  APPEND,
  /** Fail if the file exists, and never replace it, even if it appears while the query runs. */
  DONT_OVERWRITE;

  /** Parses the JSDL spelling: {@code overwrite}, {@code append}, {@code dontOverwrite}. */
  public static CreationFlag fromJsdl(String value) {
    switch (value == null ? "" : value.trim()) {
      case "overwrite":
        return OVERWRITE;
      case "append":
        return APPEND;
      case "dontOverwrite":
        return DONT_OVERWRITE;
      default:
        throw new IllegalArgumentException(
            "creation flag must be overwrite, append or dontOverwrite, not '" + value + "'");
    }
  }
}
