package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpException;
import io.gantry.staging.internal.files.PublishedFile;
import io.gantry.staging.internal.steps.BrokenStreamException;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An output file on the cluster's file system, written over SFTP as it is produced: no byte of it
 * is kept on the server's disk.
 *
 * <ol>
 *   <li>Bytes go to a hidden temporary name beside the target ({@code .name.gantry-part}) through a
 *       SHA-256 digest and a byte counter (the checksum is the stream's) and an SFTP write stream
 *       fed by a thread of its own ({@link PipelinedOutputStream}), so producing the next rows
 *       overlaps with sending the last ones.
 *   <li>{@link #commit} closes the stream (JSch waits for every write's acknowledgement), then
 *       renames: {@code posix-rename@openssh.com} replaces the target atomically ({@code
 *       overwrite}); for {@code dontOverwrite} {@code hardlink@openssh.com} links the target only
 *       if it is absent, then the temporary name is removed.
 *   <li>{@link #close()} without commit removes the temporary name if the link still stands; one
 *       left by a dropped link is overwritten by the retry and renamed away with its output.
 * </ol>
 *
 * A write that fails is a {@link BrokenStreamException}: the step is retried from the start.
 */
final class RemoteStagedFile extends PublishedFile {
  private final ChannelSftp sftp;
  private final String target;
  private final String temp;
  private final PipelinedOutputStream remote;

  RemoteStagedFile(ChannelSftp sftp, String directory, String name) throws IOException {
    this.sftp = sftp;
    this.target = directory + "/" + name;
    // One temporary name per target, not a random one: an attempt cut off by a dropped link
    // cannot remove its partial file, and the retry then overwrites that same file and renames it
    // away, so a retried step leaves nothing behind.
    this.temp = directory + "/." + name + ".gantry-part";
    try {
      // 64 chunks of up to 64 KiB (CSV writer) or one block (compressed) wait at most
      this.remote =
          new PipelinedOutputStream(
              sftp.put(temp, ChannelSftp.OVERWRITE), 64, "gantry-sftp-write " + name);
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot create " + temp, e);
    }
    writeTo(remote);
  }

  @Override
  protected void send(OutputStream out, byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw broken(e);
    }
  }

  @Override
  protected void sendFlush(OutputStream out) throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw broken(e);
    }
  }

  private BrokenStreamException broken(IOException e) {
    return new BrokenStreamException(
        "the stream to " + target + " on the cluster broke after " + bytes() + " bytes: " + e, e);
  }

  /** Closing the stream waits for every write's acknowledgement. */
  @Override
  protected void finishWriting() throws IOException {
    try {
      remote.close();
    } catch (IOException e) {
      throw broken(e);
    }
  }

  @Override
  protected void publishIfAbsent() throws IOException {
    try {
      try {
        sftp.hardlink(temp, target);
      } catch (SftpException e) {
        if (exists(target)) {
          throw new IOException(existsMessage(target.substring(target.lastIndexOf('/') + 1)), e);
        }
        throw e;
      }
      sftp.rm(temp);
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot publish " + target, e);
    }
  }

  @Override
  protected void replaceTarget() throws IOException {
    try {
      sftp.rename(temp, target);
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot publish " + target, e);
    }
  }

  private boolean exists(String path) {
    try {
      sftp.lstat(path);
      return true;
    } catch (SftpException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (!committed()) {
        remote.abandon();
        try {
          sftp.rm(temp);
        } catch (SftpException | RuntimeException e) {
          // as above
        }
      }
    } finally {
      sftp.disconnect();
    }
  }
}
