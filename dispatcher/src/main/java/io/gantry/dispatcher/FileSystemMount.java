package io.gantry.dispatcher;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A directory the operator shares with jobs as a JSDL file system ({@code Resources/FileSystem},
 * {@code filesystem.NAME.path}): the job's sandbox shows it at {@link #MOUNT_PARENT}{@code /NAME},
 * read-write or read-only as configured, besides the job directory.
 *
 * @param name the file system's name, one path segment
 * @param directory the directory on this host
 * @param readOnly whether the job may only read it
 */
public record FileSystemMount(String name, Path directory, boolean readOnly) {
  /** Where file systems appear inside a job's sandbox: {@code /fs/NAME}. */
  public static final Path MOUNT_PARENT = Path.of("/fs");

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

  public FileSystemMount {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "a file system name is one word of letters, digits, '_', '.' and '-',"
              + " not '"
              + name
              + "'");
    }
    Objects.requireNonNull(directory, "directory");
  }

  /** The path the job sees: {@code /fs/NAME}. */
  public Path mountPoint() {
    return MOUNT_PARENT.resolve(name);
  }
}
