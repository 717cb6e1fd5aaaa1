package io.gantry.staging;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A JSDL file system ({@code Resources/FileSystem}, named by a DataStaging's {@code
 * FilesystemName}) and the directory behind it on this host, as one job stages into it. A staged
 * file of such a DataStaging lies under {@code root} instead of the job directory, under the same
 * rules: a relative name, no {@code ..}, no symbolic link leading out of the root.
 *
 * @param name the name the job uses, as the operator configured it
 * @param root the directory the operator configured for it
 * @param stagingWrites whether staging may create, replace or delete files in it: false for a
 *     read-only file system unless the operator allows staging to write there explicitly
 * @param account the job's OS account, as which every file here is opened, created, replaced and
 *     deleted ({@link FileAccount}); null only where the gateway runs alone, with its caller's
 *     rights (the staging command)
 */
public record NamedFileSystem(String name, Path root, boolean stagingWrites, FileAccount account) {
  public NamedFileSystem {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a file system needs a name");
    }
    Objects.requireNonNull(root, "root");
  }

  /** A writable file system used with the caller's own rights (the gateway run alone). */
  public NamedFileSystem(String name, Path root) {
    this(name, root, true, null);
  }

  /** This file system, its files handled as {@code jobAccount}. */
  public NamedFileSystem as(FileAccount jobAccount) {
    return new NamedFileSystem(name, root, stagingWrites, jobAccount);
  }
}
