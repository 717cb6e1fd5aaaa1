package io.gantry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 in front of a server, which can cut connections after a number of bytes:
 * the network failing in the middle of a transfer, not a server refusing it.
 *
 * <p>Strategy: every accepted connection gets two pump threads (one per direction). While a drop is
 * armed ({@link #dropNextConnections}), each new connection counts the bytes it relays in both
 * directions and closes both sockets abruptly once the budget is spent.
 */
public final class ConnectionDroppingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connectionsToDrop = new AtomicInteger();
  private volatile long dropAfterBytes;
  private final AtomicInteger dropped = new AtomicInteger();
  private volatile boolean closed;

  /** A relay on 127.0.0.1 to {@code targetPort} of 127.0.0.1. */
  public ConnectionDroppingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread acceptor = new Thread(this::acceptLoop, "ssh-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The relay's own port on 127.0.0.1. */
  public int port() {
    return listener.getLocalPort();
  }

  /** The next {@code connections} connections are cut after {@code afterBytes} bytes each. */
  public void dropNextConnections(int connections, long afterBytes) {
    this.dropAfterBytes = afterBytes;
    this.connectionsToDrop.set(connections);
  }

  /** How many connections were cut so far. */
  public int droppedConnections() {
    return dropped.get();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        boolean drop = connectionsToDrop.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
        AtomicLong budget = new AtomicLong(drop ? dropAfterBytes : Long.MAX_VALUE);
        // both pumps share the budget; whichever spends it first cuts the connection, counted once
        java.util.concurrent.atomic.AtomicBoolean cut =
            new java.util.concurrent.atomic.AtomicBoolean(!drop);
        open.add(client);
        open.add(server);
        startPump(client, server, budget, cut);
        startPump(server, client, budget, cut);
      } catch (IOException e) {
        // a failed accept or upstream connect affects one client only; keep serving (the loop
        // ends once the proxy is closed)
      }
    }
  }

  private void startPump(
      Socket from, Socket to, AtomicLong budget, java.util.concurrent.atomic.AtomicBoolean cut) {
    Thread t = new Thread(() -> pump(from, to, budget, cut), "ssh-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private void pump(
      Socket from, Socket to, AtomicLong budget, java.util.concurrent.atomic.AtomicBoolean cut) {
    byte[] buffer = new byte[8192];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        long left = budget.addAndGet(-n);
        if (left < 0) {
          if (cut.compareAndSet(false, true)) {
            dropped.incrementAndGet();
          }
          break;
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the other pump closed the pair; nothing to report
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void closeQuietly(Socket s) {
    open.remove(s);
    try {
      s.setSoLinger(true, 0); // reset, not an orderly close: like a dropped link
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    for (Socket s : open) {
      closeQuietly(s);
    }
  }
}
