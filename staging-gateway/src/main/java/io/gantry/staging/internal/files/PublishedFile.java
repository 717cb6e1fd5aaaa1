package io.gantry.staging.internal.files;

import io.gantry.staging.CreationFlag;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What every {@link OutputFile} shares, wherever its bytes go: they pass through a SHA-256 digest
 * and a byte counter on their way to a temporary name, and {@link #commit} finishes writing, then
 * publishes under the final name, replacing the target or, for {@code dontOverwrite}, only where it
 * is absent. A subclass says where the bytes go and how a name is published there.
 */
public abstract class PublishedFile implements OutputFile {
  private final MessageDigest digest;
  private OutputStream stream;
  private long bytes;
  private boolean committed;
  private String checksum;

  protected PublishedFile() {
    try {
      this.digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** Writes go, counted and digested, to {@code out}; closing the stream does not close it. */
  protected final void writeTo(OutputStream destination) {
    this.stream =
        new FilterOutputStream(destination) {
          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            counted(b, off, len);
            send(out, b, off, len);
          }

          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void flush() throws IOException {
            sendFlush(out);
          }

          @Override
          public void close() {
            // the destination is closed by commit() or close()
          }
        };
  }

  /** Counts and digests bytes that reach the file by another way (an appended file's prefix). */
  protected final void counted(byte[] b, int off, int len) {
    digest.update(b, off, len);
    bytes += len;
  }

  /** Writes counted bytes to the destination. */
  protected void send(OutputStream out, byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  protected void sendFlush(OutputStream out) throws IOException {
    out.flush();
  }

  /**
   * Everything written is in the temporary name (forced to disk, acknowledged), which is closed.
   */
  protected abstract void finishWriting() throws IOException;

  /** Renames the temporary name over the target, atomically. */
  protected abstract void replaceTarget() throws IOException;

  /**
   * Links the target to the temporary name only if it is absent, then removes the temporary name.
   *
   * @throws IOException "NAME exists and the creation flag is dontOverwrite" when it is present
   */
  protected abstract void publishIfAbsent() throws IOException;

  /** Where to write; closing it does not commit. */
  @Override
  public final OutputStream stream() {
    return stream;
  }

  @Override
  public final long bytes() {
    return bytes;
  }

  /** SHA-256 of all bytes written; ends writing. */
  @Override
  public final String sha256() {
    if (checksum == null) {
      checksum = HexFormat.of().formatHex(digest.digest());
    }
    return checksum;
  }

  /** Publishes the file under its final name; returns the SHA-256 of its bytes. */
  @Override
  public final String commit(CreationFlag flag) throws IOException {
    finishWriting();
    if (flag == CreationFlag.DONT_OVERWRITE) {
      publishIfAbsent();
    } else {
      replaceTarget();
    }
    committed = true;
    return sha256();
  }

  /** Whether {@link #commit} published the file. */
  protected final boolean committed() {
    return committed;
  }

  /** The message of a {@code dontOverwrite} commit whose target exists. */
  protected static String existsMessage(String name) {
    return name + " exists and the creation flag is dontOverwrite";
  }
}
