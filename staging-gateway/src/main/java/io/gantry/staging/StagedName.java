package io.gantry.staging;

import java.util.Objects;

/**
 * A file a job stages, by its DataStaging {@code FileName}: relative to the job directory, or to a
 * {@link NamedFileSystem} when the DataStaging names one.
 *
 * @param fileSystem the file system the name is relative to; null for the job directory
 * @param fileName the relative name
 */
public record StagedName(NamedFileSystem fileSystem, String fileName) {
  public StagedName {
    Objects.requireNonNull(fileName, "fileName");
  }

  /** A name relative to the job directory. */
  public static StagedName inJobDirectory(String fileName) {
    return new StagedName(null, fileName);
  }

  /** The name as messages show it: {@code NAME:fileName} in a file system. */
  @Override
  public String toString() {
    return fileSystem == null ? fileName : fileSystem.name() + ":" + fileName;
  }
}
