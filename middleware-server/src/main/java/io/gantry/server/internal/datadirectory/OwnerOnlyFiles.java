package io.gantry.server.internal.datadirectory;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories the server makes in its data directory, born with their final owner-only
 * mode: never a moment in which another account may read them, and never a file that a start
 * interrupted half-way leaves behind with a wider mode (which the next start's check of the data
 * directory would refuse).
 */
public final class OwnerOnlyFiles {
  public static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");
  public static final Set<PosixFilePermission> DIRECTORY_MODE =
      PosixFilePermissions.fromString("rwx------");

  private OwnerOnlyFiles() {}

  /**
   * Writes {@code content} to {@code file}, mode 0600: first to a sibling created with that mode
   * (the umask can only take bits away), then moved over {@code file} in one step, so readers see
   * the old content or the whole new one, and a failure leaves no partial file under its name.
   */
  public static void write(Path file, byte[] content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path aside =
        Files.createTempFile(
            dir,
            "." + file.getFileName(),
            ".partial",
            PosixFilePermissions.asFileAttribute(FILE_MODE));
    try {
      Files.write(aside, content);
      Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(aside);
    }
  }

  /** Creates {@code dir} and any missing parent with {@code mode} exactly (not the umask's). */
  public static void createDirectories(Path dir, Set<PosixFilePermission> mode) throws IOException {
    Path absolute = dir.toAbsolutePath();
    if (Files.isDirectory(absolute)) {
      return;
    }
    Path parent = absolute.getParent();
    if (parent != null) {
      createDirectories(parent, mode);
    }
    FileAttribute<Set<PosixFilePermission>> attribute = PosixFilePermissions.asFileAttribute(mode);
    try {
      Files.createDirectory(absolute, attribute);
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(absolute)) {
        throw e;
      }
      return; // made meanwhile by someone else: its mode is theirs, checked at start
    }
    // the umask took bits away at creation; never adds any, so there was no wider moment
    Files.setPosixFilePermissions(absolute, mode);
  }
}
