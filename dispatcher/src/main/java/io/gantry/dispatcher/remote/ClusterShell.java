package io.gantry.dispatcher.remote;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.ChannelSftp;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.SftpException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs commands on the cluster's login node over an SSH exec channel of the shared {@link
 * ClusterSession}. A command is always an argument array, turned into the exec request's one string
 * only by {@link PosixShellQuoting}; the only shell text added is a fixed redirection chosen here.
 */
public final class ClusterShell {
  /** What one command did. */
  public record Result(List<String> command, int exitCode, String stdout, String stderr) {
    public boolean succeeded() {
      return exitCode == 0;
    }

    public String describe() {
      return command.get(0) + " exited with " + exitCode + ": " + stderr.strip();
    }
  }

  /** A command's answer is small; a runaway one is cut, not buffered without bound. */
  private static final int MAX_OUTPUT = 1 << 20;

  private final ClusterSession sessions;
  private final Duration timeout;

  public ClusterShell(ClusterSession sessions, Duration timeout) {
    this.sessions = sessions;
    this.timeout = timeout;
  }

  /** Runs {@code argv} with no input. */
  public Result run(List<String> argv) throws IOException {
    return run(argv, null);
  }

  /**
   * Runs {@code argv}; with {@code fd3} non-null the command reads those bytes from its file
   * descriptor 3 (the fixed redirection {@code 3<&0} over the channel's input), which is how a
   * job's environment reaches {@code sbatch --export-file=3} without ever being a command-line
   * argument on the login node.
   */
  public Result run(List<String> argv, byte[] fd3) throws IOException {
    String line = PosixShellQuoting.commandLine(argv) + (fd3 == null ? " </dev/null" : " 3<&0");
    ChannelExec exec;
    try {
      exec = (ChannelExec) sessions.session().openChannel("exec");
    } catch (JSchException e) {
      throw new IOException("cannot open an exec channel to the cluster: " + e.getMessage(), e);
    }
    try {
      exec.setCommand(line.getBytes(StandardCharsets.UTF_8));
      exec.setInputStream(new ByteArrayInputStream(fd3 == null ? new byte[0] : fd3), false);
      InputStream out = exec.getInputStream();
      InputStream err = exec.getErrStream();
      exec.connect((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(err));
      String stdout = read(out);
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!exec.isClosed()) {
        if (System.nanoTime() > deadline) {
          throw new IOException(
              argv.get(0) + " on the cluster did not answer within " + timeout.toSeconds() + " s");
        }
        Thread.onSpinWait();
        Thread.sleep(5); // the channel closes right after the last output: a short wait
      }
      return new Result(List.copyOf(argv), exec.getExitStatus(), stdout, stderr.join());
    } catch (JSchException e) {
      throw new IOException("running " + argv.get(0) + " on the cluster: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + argv.get(0) + " on the cluster", e);
    } finally {
      exec.disconnect();
    }
  }

  /**
   * Writes {@code text} to {@code path} on the cluster with permissions {@code mode}: under a
   * temporary name first, then renamed over the old file, so a reader never sees half of it.
   */
  public void install(String directory, String name, String text, int mode) throws IOException {
    ChannelSftp sftp = sftp();
    String temp = directory + "/." + name + "." + Long.toHexString(random()) + ".part";
    try {
      mkdirs(sftp, directory);
      try (OutputStream o = sftp.put(temp, ChannelSftp.OVERWRITE)) {
        o.write(text.getBytes(StandardCharsets.UTF_8));
      }
      sftp.chmod(mode, temp);
      sftp.rename(temp, directory + "/" + name);
    } catch (SftpException e) {
      throw new IOException("cannot write " + directory + "/" + name + " on the cluster: " + e, e);
    } finally {
      sftp.disconnect();
    }
  }

  private static long random() {
    return ThreadLocalRandom.current().nextLong();
  }

  private ChannelSftp sftp() throws IOException {
    try {
      ChannelSftp sftp = (ChannelSftp) sessions.session().openChannel("sftp");
      sftp.connect((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      return sftp;
    } catch (JSchException e) {
      throw new IOException("cannot open an sftp channel to the cluster: " + e.getMessage(), e);
    }
  }

  private static void mkdirs(ChannelSftp sftp, String directory) throws SftpException {
    StringBuilder path = new StringBuilder();
    for (String part : directory.split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      path.append('/').append(part);
      try {
        sftp.lstat(path.toString());
      } catch (SftpException e) {
        if (e.id != ChannelSftp.SSH_FX_NO_SUCH_FILE) {
          throw e;
        }
        sftp.mkdir(path.toString());
      }
    }
  }

  private static String read(InputStream in) {
    try (in) {
      byte[] data = in.readNBytes(MAX_OUTPUT);
      in.transferTo(OutputStream.nullOutputStream()); // drain, so the command is not blocked
      return new String(data, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
