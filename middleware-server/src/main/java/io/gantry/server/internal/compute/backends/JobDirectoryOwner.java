package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.JobAccount;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Hands a job directory to the job's OS account before its program starts: the directory and
 * everything the server staged into it become the account's, and the directory mode 0700, so the
 * job can read and replace its inputs and no other account can even list them. Links are never
 * followed (lchown): a link staged into the directory gives away nothing outside it. A file with
 * more than one hard link is a stage-in cache entry shared with the cache and other jobs: it keeps
 * the server as owner and its read-only mode.
 */
final class JobDirectoryOwner {
  private JobDirectoryOwner() {}

  /** Creates {@code dir} if needed, mode 0700, still the server's until {@link #give}. */
  static void createPrivate(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  static void give(Path dir, JobAccount account) throws IOException {
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs)
              throws IOException {
            own(d, account);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (attrs.isRegularFile() && links(file) > 1) {
              // a stage-in cache entry linked in: it stays the server's and read-only (0444), so
              // the
              // job reads it but cannot change the bytes other jobs share (docs/security.md)
              return FileVisitResult.CONTINUE;
            }
            own(file, account);
            return FileVisitResult.CONTINUE;
          }
        });
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  private static int links(Path file) throws IOException {
    return (Integer) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
  }

  private static void own(Path path, JobAccount account) throws IOException {
    Files.setAttribute(path, "unix:uid", account.uid(), LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(path, "unix:gid", account.gid(), LinkOption.NOFOLLOW_LINKS);
  }
}
