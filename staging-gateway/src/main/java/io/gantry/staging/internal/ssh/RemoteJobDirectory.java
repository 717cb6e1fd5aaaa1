package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpATTRS;
import com.jcraft.jsch.SftpException;
import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.steps.AttemptFailure;
import io.gantry.staging.internal.steps.BrokenStreamException;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * A job directory on the cluster's shared file system, reached over SFTP on the server's one
 * connection ({@link ClusterLink}); each operation uses a channel of its own.
 *
 * <p>Confinement: names are relative, without {@code ..} or glob characters ({@link RemotePaths}).
 * Every directory on the way is checked with {@code lstat} (which never follows a link) and must be
 * a directory, and a file is read only if {@code lstat} says "regular file". SFTP has no {@code
 * openat} and no {@code O_NOFOLLOW}, so a job running at the same moment could swap a checked
 * directory for a link between the check and the open. What bounds that race is who reads: the SFTP
 * server runs as the cluster account that the job's own program runs as, so a planted link can
 * never show the server more than the job itself could read and print, and nothing a job does on
 * the cluster reaches a file of the server's own host (docs/security.md).
 */
public final class RemoteJobDirectory implements JobFiles {
  private final ClusterLink link;
  private final String root;

  public RemoteJobDirectory(ClusterLink link, String root) throws IOException {
    RemotePaths.checkDirectory(root, "job directory");
    if (!root.startsWith("/")) {
      throw new IOException("job directory '" + root + "' on the cluster must be absolute");
    }
    this.link = link;
    this.root =
        root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
  }

  public String root() {
    return root;
  }

  public String describe() {
    return link.describe() + ":" + root;
  }

  @Override
  public OutputFile create(String name, String what) throws IOException {
    List<String> parts = RemotePaths.components(name, what);
    ChannelSftp sftp = channel();
    try {
      String parent = directories(sftp, parts, name, what, true);
      SftpATTRS existing = lstat(sftp, RemotePaths.join(root, parts, parts.size()));
      if (existing != null && existing.isDir()) {
        throw new IOException(what + " '" + name + "' is a directory");
      }
      return new RemoteStagedFile(sftp, parent, parts.get(parts.size() - 1));
    } catch (IOException | RuntimeException e) {
      sftp.disconnect();
      throw e;
    }
  }

  /**
   * A new, empty file {@code name} that the server appends to while the job's program follows it (a
   * streamed input); parents are created. Nothing may be at the name yet: the job directory is
   * still the server's, so something there is a stage-in's own clash, refused.
   */
  public io.gantry.staging.AppendedFile createAppended(String name, String what)
      throws IOException {
    List<String> parts = RemotePaths.components(name, what);
    ChannelSftp sftp = channel();
    try {
      directories(sftp, parts, name, what, true);
      String path = RemotePaths.join(root, parts, parts.size());
      if (lstat(sftp, path) != null) {
        throw new IOException(what + " '" + name + "' already exists in the job directory");
      }
      try (java.io.OutputStream empty = sftp.put(path, ChannelSftp.OVERWRITE)) {
        // created empty; every block is appended through a handle of its own
      } catch (SftpException e) {
        throw failure(sftp, "cannot create " + path, e);
      }
      return new RemoteAppendedFile(sftp, path, name);
    } catch (IOException | RuntimeException e) {
      sftp.disconnect();
      throw e;
    }
  }

  @Override
  public boolean exists(String name, String what) throws IOException {
    List<String> parts = RemotePaths.components(name, what);
    ChannelSftp sftp = channel();
    try {
      return lstat(sftp, RemotePaths.join(root, parts, parts.size())) != null;
    } finally {
      sftp.disconnect();
    }
  }

  @Override
  public SeekableByteChannel openForReading(String name, String what) throws IOException {
    List<String> parts = RemotePaths.components(name, what);
    ChannelSftp sftp = channel();
    try {
      directories(sftp, parts, name, what, false);
      String path = RemotePaths.join(root, parts, parts.size());
      SftpATTRS file = lstat(sftp, path);
      if (file == null) {
        throw new NoSuchFileException(what + " '" + name + "' does not exist");
      }
      if (!file.isReg()) {
        throw new RemoteRefusal(
            what, name, file.isLink() ? "is a symbolic link" : "is not a regular file");
      }
      return new RemoteReadChannel(sftp, path, file.getSize());
    } catch (IOException | RuntimeException e) {
      sftp.disconnect();
      throw e;
    }
  }

  @Override
  public boolean delete(String name, String what) throws IOException {
    List<String> parts = RemotePaths.components(name, what);
    ChannelSftp sftp = channel();
    try {
      directories(sftp, parts, name, what, false);
      String path = RemotePaths.join(root, parts, parts.size());
      if (lstat(sftp, path) == null) {
        return false;
      }
      sftp.rm(path); // removes a link itself, never its target
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (SftpException e) {
      throw failure(sftp, "cannot remove " + name, e);
    } finally {
      sftp.disconnect();
    }
  }

  @Override
  public JobFiles sibling(String directory) throws IOException {
    return new RemoteJobDirectory(link, directory);
  }

  @Override
  public JobDirectory local() {
    return null;
  }

  /**
   * Walks the directories of {@code parts} below the root, each checked with lstat; with {@code
   * create} a missing one is made, otherwise it is a NoSuchFileException. Returns the last one.
   */
  private String directories(
      ChannelSftp sftp, List<String> parts, String name, String what, boolean create)
      throws IOException {
    SftpATTRS top = lstat(sftp, root);
    if (top == null || !top.isDir()) {
      throw new IOException(
          "job directory " + root + " on the cluster does not exist or is not a directory");
    }
    for (int i = 1; i < parts.size(); i++) {
      String dir = RemotePaths.join(root, parts, i);
      SftpATTRS a = lstat(sftp, dir);
      if (a == null) {
        if (!create) {
          throw new NoSuchFileException(what + " '" + name + "' does not exist");
        }
        try {
          sftp.mkdir(dir);
        } catch (SftpException e) {
          throw failure(sftp, "cannot create " + dir, e);
        }
      } else if (a.isLink()) {
        throw new RemoteRefusal(what, name, "lies under a symbolic link");
      } else if (!a.isDir()) {
        throw new IOException(
            what + " '" + name + "': " + parts.get(i - 1) + " is not a directory");
      }
    }
    return RemotePaths.join(root, parts, parts.size() - 1);
  }

  /** lstat, or null when there is nothing at {@code path}. */
  static SftpATTRS lstat(ChannelSftp sftp, String path) throws IOException {
    try {
      return sftp.lstat(path);
    } catch (SftpException e) {
      if (e.id == ChannelSftp.SSH_FX_NO_SUCH_FILE) {
        return null;
      }
      throw failure(sftp, "cannot look at " + path, e);
    }
  }

  private ChannelSftp channel() throws IOException {
    try {
      return link.sftp();
    } catch (AttemptFailure f) {
      throw f.retryable()
          ? new BrokenStreamException(f.getMessage(), f)
          : new IOException(f.getMessage(), f);
    }
  }

  /**
   * An SFTP refusal (permission, missing file) is permanent; a failure with the link gone is a
   * broken stream, retried from the start.
   */
  static IOException failure(ChannelSftp sftp, String what, SftpException e) {
    if (e.id == ChannelSftp.SSH_FX_NO_SUCH_FILE) {
      return new NoSuchFileException(what + ": no such file on the cluster");
    }
    if (e.id == ChannelSftp.SSH_FX_PERMISSION_DENIED) {
      return new IOException(what + ": permission denied on the cluster", e);
    }
    boolean linkDown = sftp.isClosed() || !sftp.isConnected();
    if (linkDown
        || e.id == ChannelSftp.SSH_FX_CONNECTION_LOST
        || e.id == ChannelSftp.SSH_FX_NO_CONNECTION
        || e.getCause() instanceof IOException) {
      return new BrokenStreamException(what + ": the connection to the cluster broke: " + e, e);
    }
    return new IOException(what + " on the cluster: " + e.getMessage(), e);
  }
}
