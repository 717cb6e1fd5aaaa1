package io.gantry.staging.internal.files;

import io.gantry.staging.JobDirectoryReader;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The job's directory on the compute file system, the only place staging may write. Every file name
 * in a plan is relative to it; names that would reach outside (absolute paths, {@code ..}, symbolic
 * links pointing out) are refused before anything is read or written.
 */
public final class JobDirectory implements JobFiles {
  private final Path root;

  public JobDirectory(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      throw new IOException("job directory " + root + " does not exist or is not a directory");
    }
    this.root = root.toRealPath();
  }

  public Path root() {
    return root;
  }

  @Override
  public JobFiles sibling(String directory) throws IOException {
    return new JobDirectory(Path.of(directory));
  }

  /**
   * Resolves a plan's file name for writing or reading; creates missing parent directories.
   *
   * @param what what the name is (e.g. {@code SQLOutputFileName}), for the error message
   */
  public Path resolve(String name, String what) throws IOException {
    Path file = root.resolve(checkedRelative(name, what)).normalize();
    Path parent = file.getParent();
    Files.createDirectories(parent);
    if (!parent.toRealPath().startsWith(root)) {
      throw new IOException(
          what + " '" + name + "' leads outside the job directory through a symbolic link");
    }
    if (Files.isSymbolicLink(file) && !file.toRealPath().startsWith(root)) {
      throw new IOException(
          what + " '" + name + "' is a symbolic link pointing outside the job directory");
    }
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(what + " '" + name + "' is a directory");
    }
    return file;
  }

  /**
   * Resolves a name as {@link #resolve} does but creates nothing: the nearest directory above it
   * that exists must lie inside the root after every link is resolved. For files handled as the
   * job's account ({@link AccountFiles}), which creates missing directories itself.
   */
  public Path locate(String name, String what) throws IOException {
    Path file = root.resolve(checkedRelative(name, what)).normalize();
    Path existing = file.getParent();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null || !existing.toRealPath().startsWith(root)) {
      throw new IOException(
          what + " '" + name + "' leads outside the file system through a symbolic link");
    }
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(what + " '" + name + "' is a directory");
    }
    return file;
  }

  /** After its directories were created: whether {@code file}'s directory is still inside. */
  public void requireInside(Path file, String name, String what) throws IOException {
    if (!file.getParent().toRealPath().startsWith(root)) {
      throw new IOException(
          what + " '" + name + "' leads outside the file system through a symbolic link");
    }
  }

  @Override
  public OutputFile create(String name, String what) throws IOException {
    return StagedFile.create(resolve(name, what));
  }

  @Override
  public boolean exists(String name, String what) throws IOException {
    return Files.exists(resolve(name, what), LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public boolean delete(String name, String what) throws IOException {
    return Files.deleteIfExists(resolve(name, what));
  }

  @Override
  public JobDirectory local() {
    return this;
  }

  /**
   * Opens a file the job's program wrote, for stage-out: after the program ran, any name may have
   * been replaced with a link or a FIFO, so no link is followed on the way and only a regular file
   * is read ({@link JobDirectoryReader}).
   *
   * @throws IOException naming {@code what} when the file is missing or refused
   */
  @Override
  public SeekableByteChannel openForReading(String name, String what) throws IOException {
    String relative = checkedRelative(name, what).normalize().toString();
    try {
      return JobDirectoryReader.open(root, relative);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(what + " '" + name + "' does not exist");
    } catch (JobDirectoryReader.RefusedFileException e) {
      throw new IOException(what + " '" + name + "' " + e.getReason() + "; not read", e);
    }
  }

  private static Path checkedRelative(String name, String what) throws IOException {
    if (name == null || name.isBlank()) {
      throw new IOException(what + " is empty");
    }
    Path relative = Path.of(name);
    if (relative.isAbsolute()) {
      throw new IOException(
          what + " '" + name + "' must be relative to the job directory, not absolute");
    }
    for (Path part : relative) {
      if (part.toString().equals("..")) {
        throw new IOException(what + " '" + name + "' must not contain '..'");
      }
    }
    return relative;
  }

  /** The job-relative name of a file, for manifests. */
  public String relativize(Path file) {
    return root.relativize(file).toString();
  }
}
