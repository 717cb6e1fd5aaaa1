package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SftpATTRS;
import com.jcraft.jsch.SftpException;
import io.gantry.staging.internal.cache.RemoteVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * SFTP transfers. Downloads check the received length against the remote file's size (a dropped
 * connection can look like a clean end of stream). Uploads go to a hidden temporary name beside the
 * target and are renamed when complete, so the remote side never sees a partial file.
 */
final class SftpProtocol {
  private SftpProtocol() {}

  static long download(Session session, String remotePath, OutputStream out, int timeoutMillis)
      throws TransferFailure, IOException {
    ChannelSftp sftp = open(session, timeoutMillis);
    try {
      long size = sftp.stat(remotePath).getSize();
      long copied;
      try (InputStream in = sftp.get(remotePath)) {
        copied = in.transferTo(out);
      } catch (IOException e) {
        throw TransferFailure.retryable(
            "connection dropped during sftp of " + remotePath + ": " + e.getMessage(), e);
      }
      if (copied != size) {
        throw TransferFailure.retryable(
            "connection dropped after " + copied + " of " + size + " bytes", null);
      }
      return copied;
    } catch (SftpException e) {
      throw classify(e, remotePath, session);
    } finally {
      sftp.disconnect();
    }
  }

  /**
   * The file's size and modification time (seconds) from an SFTP stat; empty if the server does not
   * report both.
   */
  static Optional<RemoteVersion> stat(Session session, String remotePath, int timeoutMillis)
      throws TransferFailure {
    ChannelSftp sftp = open(session, timeoutMillis);
    try {
      SftpATTRS attrs = sftp.stat(remotePath);
      int both = SftpATTRS.SSH_FILEXFER_ATTR_SIZE | SftpATTRS.SSH_FILEXFER_ATTR_ACMODTIME;
      if ((attrs.getFlags() & both) != both) {
        return Optional.empty();
      }
      return Optional.of(
          new RemoteVersion(
              attrs.getSize(), "mtime " + Integer.toUnsignedString(attrs.getMTime())));
    } catch (SftpException e) {
      throw classify(e, remotePath, session);
    } finally {
      sftp.disconnect();
    }
  }

  /**
   * Sends {@code size} bytes of {@code in} to {@code remotePath}, renamed into place when complete.
   */
  static long upload(
      Session session, InputStream in, long size, String remotePath, int timeoutMillis)
      throws TransferFailure, IOException {
    ChannelSftp sftp = open(session, timeoutMillis);
    int slash = remotePath.lastIndexOf('/');
    String temp =
        remotePath.substring(0, slash + 1) + "." + remotePath.substring(slash + 1) + ".part";
    try {
      sftp.put(in, temp, ChannelSftp.OVERWRITE);
      replace(sftp, temp, remotePath);
      return size;
    } catch (SftpException e) {
      quietlyRemove(sftp, temp);
      throw classify(e, remotePath, session);
    } finally {
      sftp.disconnect();
    }
  }

  /** SFTP v3 rename refuses an existing target: remove it first, then rename. */
  private static void replace(ChannelSftp sftp, String temp, String target) throws SftpException {
    try {
      sftp.rename(temp, target);
    } catch (SftpException e) {
      sftp.rm(target);
      sftp.rename(temp, target);
    }
  }

  private static ChannelSftp open(Session session, int timeoutMillis) throws TransferFailure {
    try {
      ChannelSftp sftp = (ChannelSftp) session.openChannel("sftp");
      sftp.connect(timeoutMillis);
      return sftp;
    } catch (JSchException e) {
      throw TransferFailure.retryable("cannot open an sftp channel: " + e.getMessage(), e);
    }
  }

  private static TransferFailure classify(SftpException e, String remotePath, Session session) {
    if (e.id == ChannelSftp.SSH_FX_NO_SUCH_FILE) {
      return TransferFailure.permanent("remote file " + remotePath + " does not exist", e);
    }
    if (e.id == ChannelSftp.SSH_FX_PERMISSION_DENIED) {
      return TransferFailure.permanent("permission denied for remote file " + remotePath, e);
    }
    if (e.id == ChannelSftp.SSH_FX_OP_UNSUPPORTED) {
      return TransferFailure.permanent(
          "the remote sftp server does not support this operation on " + remotePath, e);
    }
    // a generic failure is what a dropping connection looks like from inside JSch: try again
    return TransferFailure.retryable(
        "sftp failed for "
            + remotePath
            + ": "
            + e.getMessage()
            + (session.isConnected() ? "" : " (connection lost)"),
        e);
  }

  private static void quietlyRemove(ChannelSftp sftp, String path) {
    try {
      sftp.rm(path);
    } catch (SftpException | RuntimeException e) {
      // the partial file is hidden (dot name) and replaced by the next attempt
    }
  }
}
