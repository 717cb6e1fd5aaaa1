package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpATTRS;
import com.jcraft.jsch.SftpException;
import io.gantry.staging.AppendedFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * A streamed input on the cluster's file system ({@link AppendedFile}), written over an SFTP
 * channel of its own on the job directory's connection, so as the account that owns it.
 *
 * <p>Each block is written through a file handle of its own, opened at the size the server has
 * written so far and closed before the next: closing waits for every write's acknowledgement, and
 * the SFTP server's close(2) is what makes an NFS client (the login host) write the file's pages
 * back (close-to-open consistency), the one durability point SFTP offers without {@code
 * fsync@openssh.com}, which JSch does not speak. So a program following the file on a compute node
 * never sees a later block before an earlier one.
 *
 * <p>Confinement: before each block the name is looked at with {@code lstat} (never following a
 * link) and must still be the regular file of exactly the bytes the server wrote: a job that
 * replaced or changed it fails its stream rather than have the server write elsewhere. The SFTP
 * server runs as the job's own account, so a race past that check cannot reach further than the job
 * itself can write ({@link RemoteJobDirectory}).
 */
final class RemoteAppendedFile implements AppendedFile {
  private final ChannelSftp sftp;
  private final String path;
  private final String name;
  private final java.util.concurrent.atomic.AtomicLong size =
      new java.util.concurrent.atomic.AtomicLong();

  /** {@code path} exists, empty, made by the server on {@code sftp}, which this now owns. */
  RemoteAppendedFile(ChannelSftp sftp, String path, String name) {
    this.sftp = sftp;
    this.path = path;
    this.name = name;
  }

  @Override
  public void append(ByteBuffer block) throws IOException {
    int n = block.remaining();
    if (n == 0) {
      return;
    }
    SftpATTRS now = RemoteJobDirectory.lstat(sftp, path);
    if (now == null || !now.isReg() || now.getSize() != size.get()) {
      throw new IOException(
          "the streamed input "
              + name
              + " on the cluster was "
              + (now == null
                  ? "removed"
                  : !now.isReg()
                      ? "replaced by something not a regular file"
                      : "changed ("
                          + now.getSize()
                          + " bytes where the server wrote "
                          + size.get()
                          + ")")
              + " while the server appended to it");
    }
    byte[] bytes;
    int offset;
    if (block.hasArray()) {
      bytes = block.array();
      offset = block.arrayOffset() + block.position();
    } else {
      bytes = new byte[n];
      block.duplicate().get(bytes);
      offset = 0;
    }
    // RESUME: written from the size the SFTP server stats, which the check above made ours
    try (OutputStream out = sftp.put(path, null, ChannelSftp.RESUME, 0)) {
      out.write(bytes, offset, n);
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot append to " + path, e);
    } catch (IOException e) {
      throw new IOException(
          "the stream to " + path + " on the cluster broke after " + size.get() + " bytes: " + e,
          e);
    }
    block.position(block.limit());
    size.addAndGet(n);
  }

  @Override
  public long size() {
    return size.get();
  }

  @Override
  public void close() {
    sftp.disconnect();
  }
}
