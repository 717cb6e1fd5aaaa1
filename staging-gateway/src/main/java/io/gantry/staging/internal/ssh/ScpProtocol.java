package io.gantry.staging.internal.ssh;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import io.gantry.staging.internal.cache.RemoteVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The scp protocol (the {@code rcp} wire format) over an exec channel running {@code scp -f} (send
 * to us) or {@code scp -t} (receive from us). One file per call. A status byte 1 or 2 from the
 * remote is its error (a missing file, a permission problem): permanent. The stream ending early is
 * a dropped connection: retryable.
 */
final class ScpProtocol {
  private ScpProtocol() {}

  /** Copies the remote file into {@code out}; returns its size. */
  static long download(Session session, String remotePath, OutputStream out, int timeoutMillis)
      throws TransferFailure, IOException {
    ChannelExec channel = openExec(session, "scp -f " + shellQuote(remotePath));
    try (InputStream in = channel.getInputStream();
        OutputStream ack = channel.getOutputStream()) {
      connect(channel, timeoutMillis);
      sendOk(ack);
      int kind = in.read();
      if (kind == 1 || kind == 2) {
        throw TransferFailure.permanent(
            "remote scp refused " + remotePath + ": " + readLine(in), null);
      }
      if (kind != 'C') {
        throw dropped(
            kind < 0 ? "connection closed before the file header" : "unexpected scp reply " + kind);
      }
      String[] header = readLine(in).split(" ", 3); // mode size name
      long size = Long.parseLong(header[1]);
      sendOk(ack);
      byte[] buf = new byte[64 * 1024];
      long left = size;
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          throw dropped("connection dropped after " + (size - left) + " of " + size + " bytes");
        }
        out.write(buf, 0, n);
        left -= n;
      }
      checkAck(in, remotePath);
      sendOk(ack);
      return size;
    } finally {
      channel.disconnect();
    }
  }

  /**
   * The file's size and modification time as the remote scp sends them with {@code -p}: the {@code
   * T} line (mtime) and the {@code C} line (size) that precede the bytes; the channel is closed
   * before any byte of the file is asked for. Empty if the remote scp sends no time.
   */
  static Optional<RemoteVersion> stat(Session session, String remotePath, int timeoutMillis)
      throws TransferFailure, IOException {
    ChannelExec channel = openExec(session, "scp -p -f " + shellQuote(remotePath));
    try (InputStream in = channel.getInputStream();
        OutputStream ack = channel.getOutputStream()) {
      connect(channel, timeoutMillis);
      sendOk(ack);
      String mtime = null;
      while (true) {
        int kind = in.read();
        if (kind == 1 || kind == 2) {
          throw TransferFailure.permanent(
              "remote scp refused " + remotePath + ": " + readLine(in), null);
        }
        if (kind == 'T') {
          mtime = readLine(in).split(" ", 2)[0]; // mtime 0 atime 0
          sendOk(ack);
        } else if (kind == 'C') {
          String[] header = readLine(in).split(" ", 3); // mode size name
          if (mtime == null || !mtime.matches("[0-9]{1,19}")) {
            return Optional.empty();
          }
          return Optional.of(new RemoteVersion(Long.parseLong(header[1]), "mtime " + mtime));
        } else {
          throw dropped(
              kind < 0
                  ? "connection closed before the file header"
                  : "unexpected scp reply " + kind);
        }
      }
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw TransferFailure.permanent(
          "the remote scp sent a header Gantry cannot read for " + remotePath, null);
    } finally {
      channel.disconnect();
    }
  }

  /**
   * Sends {@code size} bytes of {@code file} (the job's {@code local}) to {@code remotePath};
   * returns the size.
   */
  static long upload(
      Session session,
      InputStream file,
      long size,
      String local,
      String remotePath,
      int timeoutMillis)
      throws TransferFailure, IOException {
    ChannelExec channel = openExec(session, "scp -t " + shellQuote(remotePath));
    try (InputStream in = channel.getInputStream();
        OutputStream out = channel.getOutputStream()) {
      connect(channel, timeoutMillis);
      checkAck(in, remotePath);
      String name = remotePath.substring(remotePath.lastIndexOf('/') + 1);
      out.write(("C0644 " + size + " " + name + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      checkAck(in, remotePath);
      if (file.transferTo(out) != size) {
        throw new IOException(local + " changed size while being sent");
      }
      sendOk(out);
      checkAck(in, remotePath);
      return size;
    } catch (IOException e) {
      throw dropped("connection dropped while sending " + local + ": " + e.getMessage());
    } finally {
      channel.disconnect();
    }
  }

  private static ChannelExec openExec(Session session, String command) throws TransferFailure {
    try {
      ChannelExec channel = (ChannelExec) session.openChannel("exec");
      channel.setCommand(command);
      return channel;
    } catch (JSchException e) {
      throw TransferFailure.retryable("cannot open an scp channel: " + e.getMessage(), e);
    }
  }

  private static void connect(ChannelExec channel, int timeoutMillis) throws TransferFailure {
    try {
      channel.connect(timeoutMillis);
    } catch (JSchException e) {
      throw TransferFailure.retryable("cannot start the remote scp: " + e.getMessage(), e);
    }
  }

  private static void checkAck(InputStream in, String remotePath)
      throws IOException, TransferFailure {
    int b = in.read();
    if (b == 0) {
      return;
    }
    if (b < 0) {
      throw dropped("connection closed while waiting for the remote scp");
    }
    throw TransferFailure.permanent(
        "remote scp error for " + remotePath + ": " + readLine(in), null);
  }

  private static void sendOk(OutputStream out) throws IOException {
    out.write(0);
    out.flush();
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      line.write(b);
    }
    return line.toString(StandardCharsets.UTF_8).trim();
  }

  private static TransferFailure dropped(String message) {
    return TransferFailure.retryable(message, null);
  }

  /** Single-quotes a path for the remote shell that runs scp. */
  static String shellQuote(String path) {
    return "'" + path.replace("'", "'\\''") + "'";
  }
}
