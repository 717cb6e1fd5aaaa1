package io.gantry.staging;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A JSDL file system ({@code Resources/FileSystem}, named by a DataStaging's {@code
 * FilesystemName}) and the directory behind it on this host. A staged file of such a DataStaging
 * lies under {@code root} instead of the job directory, under the same rules: a relative name, no
 * {@code ..}, no symbolic link leading out of the root.
 *
 * @param name the name the job uses, as the operator configured it
 * @param root the directory the operator configured for it
 */
public record NamedFileSystem(String name, Path root) {
  public NamedFileSystem {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a file system needs a name");
    }
    Objects.requireNonNull(root, "root");
  }
}
