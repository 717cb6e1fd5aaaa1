package io.gantry.server.internal.datadirectory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes a job's directory tree as the server (root), which the job's account may still reach
 * (another job of the same account, a login of that user): with {@code rm -r} semantics through
 * paths, a directory swapped for a link mid-way would make the server delete whatever the link
 * points at. Each directory is opened relative to its parent without following links ({@link
 * SecureDirectoryStream}), and links are removed, never followed.
 */
final class JobDirectoryRemoval {
  private JobDirectoryRemoval() {}

  /** Removes {@code dir} and everything under it; nothing if it is already gone. */
  static void remove(Path dir) throws IOException {
    Path parent = dir.toAbsolutePath().getParent();
    try (DirectoryStream<Path> top = Files.newDirectoryStream(parent)) {
      if (!(top instanceof SecureDirectoryStream<Path> secureTop)) {
        throw new IOException(
            "this platform cannot remove files without following links (no openat)");
      }
      Path name = dir.getFileName();
      if (!isDirectory(secureTop, name)) {
        secureTop.deleteFile(name); // a link or file left in a job directory's place
        return;
      }
      try (SecureDirectoryStream<Path> inside =
          secureTop.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
        empty(inside);
      }
      secureTop.deleteDirectory(name);
    } catch (NoSuchFileException e) {
      // already gone
    }
  }

  private static void empty(SecureDirectoryStream<Path> dir) throws IOException {
    List<Path> names = new ArrayList<>();
    for (Path entry : dir) {
      names.add(entry.getFileName());
    }
    for (Path name : names) {
      if (isDirectory(dir, name)) {
        try (SecureDirectoryStream<Path> inside =
            dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
          empty(inside);
        }
        dir.deleteDirectory(name);
      } else {
        dir.deleteFile(name);
      }
    }
  }

  private static boolean isDirectory(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .readAttributes()
        .isDirectory();
  }
}
