package io.gantry.staging.internal.files;

import io.gantry.staging.CreationFlag;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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
public final class StagedFile implements OutputFile {
  private final Path target;
  private final Path temp;
  private final FileChannel channel;
  private final MessageDigest digest;
  private final OutputStream stream;
  private long bytes;
  private boolean committed;
  private String checksum;

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
    try {
      this.digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
    if (keepExistingBytes > 0) {
      copyPrefix(keepExistingBytes);
    }
    OutputStream raw = Channels.newOutputStream(channel);
    this.stream =
        new FilterOutputStream(raw) {
          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            digest.update(b, off, len);
            bytes += len;
            out.write(b, off, len);
          }

          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void close() {
            // the channel is closed by commit() or StagedFile.close()
          }
        };
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
        digest.update(buf, 0, n);
        channel.write(java.nio.ByteBuffer.wrap(buf, 0, n));
        bytes += n;
        left -= n;
      }
    }
  }

  /** Where to write; closing it does not commit. */
  @Override
  public OutputStream stream() {
    return stream;
  }

  @Override
  public long bytes() {
    return bytes;
  }

  /** SHA-256 of all bytes written; ends writing. */
  @Override
  public String sha256() {
    if (checksum == null) {
      checksum = HexFormat.of().formatHex(digest.digest());
    }
    return checksum;
  }

  /** Publishes the file under its final name; returns the SHA-256 of its bytes. */
  @Override
  public String commit(CreationFlag flag) throws IOException {
    channel.force(true);
    channel.close();
    if (flag == CreationFlag.DONT_OVERWRITE) {
      try {
        Files.createLink(target, temp);
      } catch (FileAlreadyExistsException e) {
        throw new IOException(
            target.getFileName() + " exists and the creation flag is dontOverwrite");
      } finally {
        Files.deleteIfExists(temp);
      }
    } else {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
    committed = true;
    return sha256();
  }

  @Override
  public void close() throws IOException {
    if (committed) {
      return;
    }
    try {
      channel.close();
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
