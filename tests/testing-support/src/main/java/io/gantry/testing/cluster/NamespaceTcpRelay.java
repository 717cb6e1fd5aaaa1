package io.gantry.testing.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP port on 127.0.0.1 of this machine that leads to an address inside a test namespace, so a
 * client in this JVM (JSch, an SFTP library) reaches a host whose address exists only in the
 * namespaces. Each connection runs bash's {@code /dev/tcp} inside the namespace and relays the
 * bytes through its standard streams; when either side closes, both are closed.
 */
final class NamespaceTcpRelay implements AutoCloseable {
  // A fixed script; the address and port are positional arguments, never shell text.
  private static final String CONNECT = "exec 3<>\"/dev/tcp/$1/$2\" || exit 1; cat <&3 & cat >&3";

  private final ServerSocket server;
  private final String namespace;
  private final String address;
  private final int port;
  private final Set<Process> relays = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  NamespaceTcpRelay(String namespace, String address, int port) throws IOException {
    this.namespace = namespace;
    this.address = address;
    this.port = port;
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::acceptLoop, "namespace-relay-" + namespace);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  InetSocketAddress localAddress() {
    return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        relay(client);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void relay(Socket client) throws IOException {
    Process process =
        new ProcessBuilder(
                ClusterNetwork.inNamespace(
                    namespace,
                    List.of("bash", "-c", CONNECT, "relay", address, Integer.toString(port))))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    relays.add(process);
    Runnable closeBoth =
        () -> {
          process.descendants().forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly();
          relays.remove(process);
          try {
            client.close();
          } catch (IOException ignored) {
            // already closed
          }
        };
    pump(client.getInputStream(), process.getOutputStream(), closeBoth);
    pump(process.getInputStream(), client.getOutputStream(), closeBoth);
  }

  private static void pump(InputStream from, OutputStream to, Runnable whenDone) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[65536];
              try {
                for (int n; (n = from.read(buffer)) >= 0; ) {
                  to.write(buffer, 0, n);
                  to.flush();
                }
              } catch (IOException ignored) {
                // the other side went away: close both below
              } finally {
                whenDone.run();
              }
            },
            "namespace-relay-pump");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
    for (Process process : relays) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }
}
