package io.gantry.dispatcher;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client of a dispatcher's port that is not a launcher: it announces frames it never sends,
 * dribbles its bytes, or just holds the connection. Plain sockets, so what the dispatcher does to
 * it (answers, closes, ignores) is seen as a peer sees it.
 */
public final class HostileClient implements AutoCloseable {
  private final Socket socket;

  private HostileClient(Socket socket) {
    this.socket = socket;
  }

  /** Connects (the kernel completes it whether or not the dispatcher has accepted it yet). */
  public static HostileClient connect(InetSocketAddress dispatcher) throws IOException {
    Socket s = new Socket();
    s.connect(dispatcher, 10_000);
    return new HostileClient(s);
  }

  /** A HELLO frame as gantry-launcher sends it (docs/task-farms.md). */
  public static byte[] hello(String secret, String host) throws IOException {
    return hello(secret, host, 2);
  }

  /** A HELLO frame of protocol {@code version}. */
  public static byte[] hello(String secret, String host, int version) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    byte[] s = secret.getBytes(StandardCharsets.UTF_8);
    byte[] h = host.getBytes(StandardCharsets.UTF_8);
    d.writeInt(1 + 4 + 4 + s.length + 4 + h.length + 4);
    d.writeByte(1);
    d.writeInt(version);
    d.writeInt(s.length);
    d.write(s);
    d.writeInt(h.length);
    d.write(h);
    d.writeInt(4242);
    return b.toByteArray();
  }

  /** Sends the length of a frame of {@code length} bytes and {@code some} bytes of it. */
  public void announce(int length, int some) throws IOException {
    OutputStream out = socket.getOutputStream();
    new DataOutputStream(out).writeInt(length);
    out.write(new byte[some]);
    out.flush();
  }

  public void send(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
  }

  /** Sends one byte; false when the dispatcher has closed the connection. */
  public boolean trickle(byte b) {
    try {
      socket.getOutputStream().write(b);
      socket.getOutputStream().flush();
      return true;
    } catch (IOException closed) {
      return false;
    }
  }

  /** The first frame's type the dispatcher sends within {@code wait}; -1 for none or closed. */
  public int firstFrameType(Duration wait) throws IOException {
    socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
    try {
      InputStream in = socket.getInputStream();
      byte[] head = in.readNBytes(5);
      return head.length == 5 ? head[4] : -1;
    } catch (SocketTimeoutException silent) {
      return -1;
    } catch (SocketException reset) {
      return -1;
    }
  }

  /** The reason of a REFUSE frame, the first frame the dispatcher sends; null for another. */
  public String refusal(Duration wait) throws IOException {
    socket.setSoTimeout((int) Math.max(1, wait.toMillis()));
    java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
    int length = in.readInt();
    if (length < 5 || length > 4096 || in.readByte() != 3) {
      return null;
    }
    byte[] reason = new byte[in.readInt()];
    in.readFully(reason);
    return new String(reason, StandardCharsets.UTF_8);
  }

  /** Whether the dispatcher closes the connection within {@code wait} (end of stream or reset). */
  public boolean closedWithin(Duration wait) throws IOException {
    long deadline = System.nanoTime() + wait.toNanos();
    InputStream in = socket.getInputStream();
    try {
      while (true) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return false;
        }
        socket.setSoTimeout((int) left);
        if (in.read() < 0) {
          return true;
        }
      }
    } catch (SocketTimeoutException stillOpen) {
      return false;
    } catch (SocketException reset) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
