package io.gantry.staging.internal.files;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An output file that appears under its final name only when complete.
 *
 * <ol>
 *   <li>Bytes go to a hidden temporary file beside the target ({@code .name.<random>.part}),
 *       through a SHA-256 digest and a byte counter.
 *   <li>{@link #commit} forces the data to disk, then renames: atomically replacing the target
 *       ({@code overwrite}, {@code append}) or linking it only if absent ({@code dontOverwrite}, so
 *       a file that appeared meanwhile is never replaced).
 *   <li>{@link #close()} without commit deletes the temporary file: a failed step leaves nothing.
 * </ol>
 *
 * For {@code append}, the existing file's bytes are first copied into the temporary file, so
 * readers see either the old file or the old file plus all new rows.
 */
public final class StagedFile extends PublishedFile {
  private final Path target;
  private final Path temp;
  private final FileChannel channel;

  private StagedFile(Path target, long keepExistingBytes) throws IOException {
    this.target = target;
    this.temp =
        target.resolveSibling(
            "."
                + target.getFileName()
                + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".part");
    this.channel =
        FileChannel.open(
            temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
    if (keepExistingBytes > 0) {
      copyPrefix(keepExistingBytes);
    }
    writeTo(Channels.newOutputStream(channel));
  }

  /** A new, empty staged file for {@code target}. */
  public static StagedFile create(Path target) throws IOException {
    return new StagedFile(target, 0);
  }

  /** A staged file starting with the first {@code keep} bytes of the existing {@code target}. */
  public static StagedFile appendingTo(Path target, long keep) throws IOException {
    return new StagedFile(target, keep);
  }

  private void copyPrefix(long keep) throws IOException {
    byte[] buf = new byte[256 * 1024];
    try (var in = Files.newInputStream(target)) {
      long left = keep;
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          throw new IOException(target + " shrank while being copied for append");
        }
        counted(buf, 0, n);
        channel.write(java.nio.ByteBuffer.wrap(buf, 0, n));
        left -= n;
      }
    }
  }

  @Override
  protected void finishWriting() throws IOException {
    channel.force(true);
    channel.close();
  }

  @Override
  protected void publishIfAbsent() throws IOException {
    try {
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      throw new IOException(existsMessage(target.getFileName().toString()));
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  protected void replaceTarget() throws IOException {
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void close() throws IOException {
    if (committed()) {
      return;
    }
    try {
      channel.close();
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
