package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.SftpATTRS;
import com.jcraft.jsch.SftpException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Whole directories on the cluster: a job directory made afresh, or removed. */
public final class RemoteTree {
  private RemoteTree() {}

  /**
   * Removes {@code directory} with everything in it, if it is there, then creates it empty with
   * mode 0700 (and its missing parents). Links inside are removed, never followed.
   */
  public static void recreate(ClusterLink link, String directory) throws IOException {
    RemotePaths.checkDirectory(directory, "job directory");
    ChannelSftp sftp = open(link);
    try {
      SftpATTRS a = RemoteJobDirectory.lstat(sftp, directory);
      if (a != null) {
        remove(sftp, directory, a);
      }
      mkdirs(sftp, directory);
      sftp.chmod(0700, directory);
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot prepare " + directory, e);
    } finally {
      sftp.disconnect();
    }
  }

  /**
   * As {@link #recreate}, for a job directory inside its account's own directory ({@code
   * ROOT/ACCOUNT/JOB}, the connection logged in as that account): the account's directory is made
   * 0700 when absent, and must then be a directory (not a link) of the same owner as the job
   * directory just made, open to no one else. One another account made or left open (in a root
   * every account may write) is refused: its owner could swap the job directory for a link.
   */
  public static void recreateInPrivateParent(ClusterLink link, String directory)
      throws IOException {
    RemotePaths.checkDirectory(directory, "job directory");
    String parent = directory.substring(0, directory.lastIndexOf('/'));
    ChannelSftp sftp = open(link);
    try {
      if (RemoteJobDirectory.lstat(sftp, parent) == null) {
        mkdirs(sftp, parent);
        sftp.chmod(0700, parent);
      }
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot create " + parent, e);
    } finally {
      sftp.disconnect();
    }
    recreate(link, directory);
    sftp = open(link);
    try {
      SftpATTRS account = RemoteJobDirectory.lstat(sftp, parent);
      SftpATTRS job = RemoteJobDirectory.lstat(sftp, directory);
      if (account == null
          || job == null
          || !account.isDir()
          || account.isLink()
          || account.getUId() != job.getUId()
          || (account.getPermissions() & 077) != 0) {
        throw new IOException(
            parent
                + " on the cluster is not a private directory of "
                + link.user()
                + " (a directory of that account, mode 0700): "
                + (account == null ? "absent" : account.toString())
                + "; remove it, or make it that account's with mode 0700");
      }
    } finally {
      sftp.disconnect();
    }
  }

  /** Creates {@code directory} and its missing parents. */
  public static void createDirectories(ClusterLink link, String directory) throws IOException {
    RemotePaths.checkDirectory(directory, "directory");
    ChannelSftp sftp = open(link);
    try {
      mkdirs(sftp, directory);
    } catch (SftpException e) {
      throw RemoteJobDirectory.failure(sftp, "cannot create " + directory, e);
    } finally {
      sftp.disconnect();
    }
  }

  /** Whether anything is at {@code path} (a link counts, and is not followed). */
  public static boolean exists(ClusterLink link, String path) throws IOException {
    RemotePaths.checkDirectory(path, "path");
    ChannelSftp sftp = open(link);
    try {
      return RemoteJobDirectory.lstat(sftp, path) != null;
    } finally {
      sftp.disconnect();
    }
  }

  private static void mkdirs(ChannelSftp sftp, String directory) throws SftpException, IOException {
    StringBuilder path = new StringBuilder();
    for (String part : directory.split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      path.append('/').append(part);
      SftpATTRS a = RemoteJobDirectory.lstat(sftp, path.toString());
      if (a == null) {
        sftp.mkdir(path.toString());
      } else if (!a.isDir()) {
        throw new IOException(path + " on the cluster is not a directory");
      }
    }
  }

  private static void remove(ChannelSftp sftp, String path, SftpATTRS attrs) throws SftpException {
    if (!attrs.isDir() || attrs.isLink()) {
      sftp.rm(path);
      return;
    }
    List<ChannelSftp.LsEntry> entries = new ArrayList<>();
    // ls of a directory path lists its entries (JSch globs only names with pattern characters,
    // which RemotePaths refuses)
    sftp.ls(
        path,
        e -> {
          entries.add(e);
          return ChannelSftp.LsEntrySelector.CONTINUE;
        });
    for (ChannelSftp.LsEntry e : entries) {
      if (e.getFilename().equals(".") || e.getFilename().equals("..")) {
        continue;
      }
      remove(sftp, path + "/" + escaped(e.getFilename()), e.getAttrs());
    }
    sftp.rmdir(path);
  }

  /** A name the job chose, with JSch's glob characters escaped, so it addresses only itself. */
  private static String escaped(String name) {
    return name.replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?");
  }

  private static ChannelSftp open(ClusterLink link) throws IOException {
    try {
      return link.sftp();
    } catch (io.gantry.staging.internal.steps.AttemptFailure f) {
      throw new IOException(f.getMessage(), f);
    }
  }
}
