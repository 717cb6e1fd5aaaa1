package io.gantry.staging;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Opens a file of a job's directory for the server, which runs with more rights than the job: the
 * job's program may replace any file or directory under its job directory with a symbolic link (to
 * the server's keystore password, to {@code /etc/shadow}) or a FIFO at any moment, also while the
 * server is opening it. So, like {@code openat(2)} with {@code O_NOFOLLOW} at every step:
 *
 * <ol>
 *   <li>the job directory is opened through its parent (which the server owns) without following a
 *       link in its last component;
 *   <li>each directory of the relative name is opened relative to the one before it, never
 *       following a link ({@link SecureDirectoryStream}); {@code ..}, absolute names and empty
 *       components are refused before anything is opened;
 *   <li>the file itself is opened relative to its directory without following a link, after its own
 *       attributes (not a link's target's) said "regular file";
 *   <li>the opened channel must be seekable, which a FIFO or socket swapped in after that check is
 *       not.
 * </ol>
 *
 * The file is opened read-write where the server may write it, because Linux opens a FIFO
 * read-write at once, where a read-only open would wait for a writer forever; nothing is ever
 * written through it. Where the server may not write (a read-only file system, a non-root server
 * reading another account's file) it falls back to a read-only open.
 *
 * <p>Hard links are no way out either: with {@code fs.protected_hardlinks=1} (the default of every
 * current distribution) a job's account cannot link a file it may not read and write.
 */
public final class JobDirectoryReader {
  private static final Set<OpenOption> READ_WRITE =
      Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
  private static final Set<OpenOption> READ_ONLY =
      Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

  private JobDirectoryReader() {}

  /** A file that is there but is not a regular file inside the job directory: never read. */
  public static final class RefusedFileException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    RefusedFileException(String file, String reason) {
      super(file, null, reason);
    }
  }

  /**
   * Opens {@code relativeName} ({@code /}-separated, inside {@code jobDirectory}) for reading.
   *
   * @throws NoSuchFileException when it (or a directory on its way) does not exist
   * @throws RefusedFileException when it or a directory on its way is a link, or it is not a
   *     regular file
   */
  public static SeekableByteChannel open(Path jobDirectory, String relativeName)
      throws IOException {
    List<String> parts = components(relativeName);
    Path dir = jobDirectory.toAbsolutePath().normalize();
    Path parent = dir.getParent();
    if (parent == null) {
      throw new RefusedFileException(
          dir.toString(), "a job directory cannot be the file system's root");
    }
    try (DirectoryStream<Path> top = Files.newDirectoryStream(parent)) {
      if (!(top instanceof SecureDirectoryStream<Path> secureTop)) {
        throw new IOException(
            "this platform cannot open files without following links (no openat)");
      }
      SecureDirectoryStream<Path> current = descend(secureTop, dir.getFileName(), relativeName);
      try {
        for (String part : parts.subList(0, parts.size() - 1)) {
          SecureDirectoryStream<Path> next = descend(current, Path.of(part), relativeName);
          current.close();
          current = next;
        }
        return openRegular(current, Path.of(parts.get(parts.size() - 1)), relativeName);
      } finally {
        current.close();
      }
    }
  }

  /**
   * Checks a name as {@link #open} does, without opening anything: for readers of a job directory
   * that lies elsewhere (a cluster reached over SSH), so that a name is refused the same way.
   *
   * @throws RefusedFileException for an absolute name, {@code ..}, {@code .} or empty components
   */
  public static void checkName(String relativeName) throws RefusedFileException {
    components(relativeName);
  }

  /** The name's components; refuses absolute names, {@code ..}, {@code .} and empty ones. */
  static List<String> components(String relativeName) throws RefusedFileException {
    if (relativeName == null || relativeName.isEmpty() || relativeName.startsWith("/")) {
      throw new RefusedFileException(
          String.valueOf(relativeName), "must be a relative name inside the job directory");
    }
    List<String> parts = new ArrayList<>();
    for (String part : relativeName.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..") || part.indexOf('\0') >= 0) {
        throw new RefusedFileException(
            relativeName, "must not contain '..', '.' or empty components");
      }
      parts.add(part);
    }
    return parts;
  }

  private static SecureDirectoryStream<Path> descend(
      SecureDirectoryStream<Path> dir, Path name, String wanted) throws IOException {
    BasicFileAttributes a = attributes(dir, name, wanted);
    if (!a.isDirectory()) {
      throw new RefusedFileException(
          wanted, "'" + name + "' on its way is " + kind(a) + ", not a directory");
    }
    try {
      return dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
    } catch (FileSystemException e) {
      throw refusedOrMissing(e, wanted, "'" + name + "' on its way");
    }
  }

  private static SeekableByteChannel openRegular(
      SecureDirectoryStream<Path> dir, Path name, String wanted) throws IOException {
    BasicFileAttributes a = attributes(dir, name, wanted);
    if (!a.isRegularFile()) {
      throw new RefusedFileException(wanted, "is " + kind(a) + ", not a regular file");
    }
    return openChecked(dir, name, wanted);
  }

  /** The open after the check, for whatever the name is by now (a test swaps in a FIFO here). */
  static SeekableByteChannel openChecked(SecureDirectoryStream<Path> dir, Path name, String wanted)
      throws IOException {
    SeekableByteChannel channel;
    try {
      channel = openNonBlocking(dir, name);
    } catch (FileSystemException e) {
      throw refusedOrMissing(e, wanted, "it");
    }
    try {
      channel.position(); // lseek(2): fails on a FIFO or socket swapped in since the check
      return channel;
    } catch (IOException e) {
      channel.close();
      throw new RefusedFileException(wanted, "is not a regular file (changed while being opened)");
    }
  }

  private static SeekableByteChannel openNonBlocking(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    try {
      return dir.newByteChannel(name, READ_WRITE);
    } catch (AccessDeniedException e) {
      return dir.newByteChannel(name, READ_ONLY);
    } catch (FileSystemException e) {
      if (e.getReason() != null
          && (e.getReason().contains("Read-only") || e.getReason().contains("busy"))) {
        return dir.newByteChannel(name, READ_ONLY);
      }
      throw e;
    }
  }

  private static BasicFileAttributes attributes(
      SecureDirectoryStream<Path> dir, Path name, String wanted) throws IOException {
    try {
      return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .readAttributes();
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(wanted);
    }
  }

  /** ELOOP (a link that appeared since the check) reads as a refusal, ENOENT as missing. */
  private static IOException refusedOrMissing(FileSystemException e, String wanted, String what) {
    if (e instanceof NoSuchFileException) {
      return new NoSuchFileException(wanted);
    }
    return new RefusedFileException(
        wanted, what + " could not be opened without following links: " + e.getReason());
  }

  private static String kind(BasicFileAttributes a) {
    if (a.isSymbolicLink()) {
      return "a symbolic link (not followed)";
    }
    if (a.isDirectory()) {
      return "a directory";
    }
    if (a.isRegularFile()) {
      return "a regular file";
    }
    return "a FIFO, socket or device";
  }
}
