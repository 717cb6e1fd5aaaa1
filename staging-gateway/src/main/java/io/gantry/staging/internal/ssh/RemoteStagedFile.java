package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpException;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.steps.BrokenStreamException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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
final class RemoteStagedFile implements OutputFile {
  private final ChannelSftp sftp;
  private final String target;
  private final String temp;
  private final PipelinedOutputStream remote;
  private final MessageDigest digest;
  private final OutputStream stream;
  private long bytes;
  private boolean committed;
  private String checksum;

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
    try {
      this.digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
    this.stream =
        new FilterOutputStream(remote) {
          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            digest.update(b, off, len);
            bytes += len;
            try {
              out.write(b, off, len);
            } catch (IOException e) {
              throw broken(e);
            }
          }

          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void flush() throws IOException {
            try {
              out.flush();
            } catch (IOException e) {
              throw broken(e);
            }
          }

          @Override
          public void close() {
            // the remote stream is closed by commit() or RemoteStagedFile.close()
          }
        };
  }

  private BrokenStreamException broken(IOException e) {
    return new BrokenStreamException(
        "the stream to " + target + " on the cluster broke after " + bytes + " bytes: " + e, e);
  }

  @Override
  public OutputStream stream() {
    return stream;
  }

  @Override
  public long bytes() {
    return bytes;
  }

  @Override
  public String sha256() {
    if (checksum == null) {
      checksum = HexFormat.of().formatHex(digest.digest());
    }
    return checksum;
  }

  @Override
  public String commit(CreationFlag flag) throws IOException {
    try {
      remote.close();
    } catch (IOException e) {
      throw broken(e);
    }
    try {
      if (flag == CreationFlag.DONT_OVERWRITE) {
        try {
          sftp.hardlink(temp, target);
        } catch (SftpException e) {
          if (exists(target)) {
            throw new IOException(
                target.substring(target.lastIndexOf('/') + 1)
                    + " exists and the creation flag is dontOverwrite",
                e);
          }
          throw e;
        }
        sftp.rm(temp);
      } else {
        sftp.rename(temp, target);
      }
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot publish " + target, e);
    }
    committed = true;
    return sha256();
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
      if (!committed) {
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
