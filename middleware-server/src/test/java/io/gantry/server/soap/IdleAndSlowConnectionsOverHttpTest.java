package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.soap.FingerprintTrustManager;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two thousand idle and slow connections to the HTTPS port do not stop a user's calls, and the
 * server's connection limits close them (docs/security.md, "Idle and slow connections").
 *
 * <p>The attackers come from other loopback addresses (127.0.1.x and up; Linux answers the whole of
 * 127/8) so that the per-address limits apply to them and not to the user at 127.0.0.1:
 *
 * <ul>
 *   <li>1,400 TCP connections that never start their TLS handshake, 100 from each of 14 addresses;
 *   <li>400 from one address, over {@code http.max-connections-per-address} (128);
 *   <li>150 that finish the handshake and then trickle a request head a byte at a time;
 *   <li>240 that send a whole head and then trickle the body (an unauthenticated SOAP request is
 *       read in a thread), 120 from each of two addresses, more than Jetty's 200 threads.
 * </ul>
 *
 * The head timeout and idle timeout are shortened to PT2S and PT5S so that the closing is seen
 * within seconds; the other limits are the defaults.
 */
class IdleAndSlowConnectionsOverHttpTest {
  private static final String PASSWORD = "alice's password";
  private static final Duration HEAD_TIMEOUT = Duration.ofSeconds(2);

  @TempDir static Path dir;
  static GantryTestServer server;
  static int port;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .secure()
            .account(new TestAccount("alice", PASSWORD, false, null))
            .setting("http.request-head-timeout", HEAD_TIMEOUT.toString())
            .setting("http.idle-timeout", "PT5S")
            .start();
    port = java.net.URI.create(server.url()).getPort();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void twoThousandIdleAndSlowConnectionsDoNotStopAUsersCallsAndAreClosed() throws Exception {
    JobManagement alice = JobManagementClients.of(server, new Login.Basic("alice", PASSWORD));
    Duration quiet = timed(alice);

    List<Socket> idle = new ArrayList<>();
    List<Socket> crowd = new ArrayList<>();
    List<SSLSocket> slowHeads = new ArrayList<>();
    List<SSLSocket> slowBodies = new ArrayList<>();
    ExecutorService handshakes = Executors.newFixedThreadPool(8);
    Trickle trickle = new Trickle();
    Thread trickling = new Thread(trickle, "trickle");
    trickling.setDaemon(true);
    trickling.start();
    try {
      for (int i = 0; i < 1400; i++) {
        idle.add(connect(1, 1 + i / 100));
      }
      for (int i = 0; i < 400; i++) {
        crowd.add(connect(2, 1));
      }
      SSLSocketFactory tls = tls();
      List<Future<SSLSocket>> heads = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        int from = 1 + i / 75;
        heads.add(handshakes.submit(() -> handshaken(tls, 3, from, "POST /services/Job")));
      }
      List<Future<SSLSocket>> bodies = new ArrayList<>();
      for (int i = 0; i < 240; i++) {
        int from = 1 + i / 120;
        bodies.add(handshakes.submit(() -> handshaken(tls, 4, from, SLOW_BODY_HEAD)));
      }
      for (Future<SSLSocket> f : heads) {
        slowHeads.add(f.get());
      }
      for (Future<SSLSocket> f : bodies) {
        slowBodies.add(f.get());
      }
      long attacked = System.nanoTime();

      // the over-limit ones are closed at once
      int crowdClosed = closedWithin(crowd, Duration.ofSeconds(1));
      assertTrue(
          crowdClosed >= 400 - 128,
          crowdClosed + " of 400 connections from one address were closed at once");

      // while heads and bodies trickle, the user's calls answer
      trickle.add(slowHeads);
      trickle.add(slowBodies);
      Duration attackedCall = timed(alice);
      Duration secondCall = timed(alice);
      assertTrue(
          attackedCall.compareTo(Duration.ofSeconds(5)) < 0
              && secondCall.compareTo(Duration.ofSeconds(5)) < 0,
          "getServerInfo took "
              + attackedCall
              + " and "
              + secondCall
              + " under attack, "
              + quiet
              + " before");

      // the limits close every attacker's connection, trickling still: handshake and head
      // timeouts, the bodies' data rate
      Duration bound = Await.scaled(Duration.ofSeconds(15));
      assertEquals(1400, closedWithin(idle, bound), "idle connections closed");
      assertEquals(400, closedWithin(crowd, bound), "one address's connections closed");
      assertEquals(150, closedWithin(slowHeads, bound), "slow heads closed");
      assertEquals(240, closedWithin(slowBodies, bound), "slow bodies closed");
      Duration took = Duration.ofNanos(System.nanoTime() - attacked);
      System.out.printf(
          "getServerInfo: %d ms quiet, %d and %d ms under attack; all 2190 attackers closed %d ms"
              + " after the attack began%n",
          quiet.toMillis(), attackedCall.toMillis(), secondCall.toMillis(), took.toMillis());
      String log = server.log();
      assertTrue(log.contains("(http.request-head-timeout)"), "the log names the head timeout");
      assertTrue(
          log.contains("(http.max-connections-per-address)"),
          "the log names the per-address limit");
      // and the user's calls still answer afterwards
      timed(alice);
    } finally {
      trickle.stop();
      trickling.join();
      handshakes.shutdownNow();
      closeAll(idle);
      closeAll(crowd);
      closeAll(slowHeads);
      closeAll(slowBodies);
    }
  }

  private static final String SLOW_BODY_HEAD =
      "POST /services/JobManagement HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"\"\r\n"
          + "Content-Length: 60000\r\n\r\n<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'>";

  private static Duration timed(JobManagement client) {
    long started = System.nanoTime();
    assertEquals("0.1.0", client.getServerInfo().version);
    return Duration.ofNanos(System.nanoTime() - started);
  }

  /** A connection to the server from loopback address 127.0.{@code c}.{@code d}. */
  private static Socket connect(int c, int d) throws IOException {
    Socket socket = new Socket();
    socket.bind(
        new InetSocketAddress(
            InetAddress.getByAddress(new byte[] {127, 0, (byte) c, (byte) d}), 0));
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
    return socket;
  }

  private static SSLSocketFactory tls() throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        null,
        new TrustManager[] {new FingerprintTrustManager(server.fingerprint().orElseThrow())},
        null);
    return context.getSocketFactory();
  }

  /**
   * A TLS connection from 127.0.{@code c}.{@code d} that has sent {@code start} and nothing more
   * yet.
   */
  private static SSLSocket handshaken(SSLSocketFactory tls, int c, int d, String start)
      throws IOException {
    Socket plain = connect(c, d);
    SSLSocket socket = (SSLSocket) tls.createSocket(plain, "127.0.0.1", port, true);
    socket.startHandshake();
    socket.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  /**
   * How many of {@code sockets} the server has closed (end of stream, or a reset) within {@code
   * bound} from now; an answer before the close (a refused body's status) is read past.
   */
  private static int closedWithin(List<? extends Socket> sockets, Duration bound)
      throws IOException {
    long deadline = System.nanoTime() + bound.toNanos();
    byte[] buffer = new byte[4096];
    int closed = 0;
    for (Socket socket : sockets) {
      try {
        while (true) {
          long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
          socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
          if (socket.getInputStream().read(buffer) < 0) {
            closed++;
            break;
          }
        }
      } catch (SocketTimeoutException e) {
        // still open at the deadline
      } catch (IOException e) {
        closed++; // reset, or the TLS connection ended without its close_notify
      }
    }
    return closed;
  }

  private static void closeAll(List<? extends Socket> sockets) {
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing what the server may have closed already
      }
    }
  }

  /** Writes one byte to each slow head and body every 200 ms, until stopped or closed. */
  private static final class Trickle implements Runnable {
    private final java.util.Queue<SSLSocket> added =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile boolean stopped;

    void add(List<SSLSocket> sockets) {
      added.addAll(sockets);
    }

    void stop() {
      stopped = true;
    }

    @Override
    public void run() {
      List<SSLSocket> open = new ArrayList<>();
      while (!stopped) {
        for (SSLSocket s = added.poll(); s != null; s = added.poll()) {
          open.add(s);
        }
        for (Iterator<SSLSocket> i = open.iterator(); i.hasNext(); ) {
          try {
            OutputStream out = i.next().getOutputStream();
            out.write('x');
            out.flush();
          } catch (IOException e) {
            i.remove(); // closed by the server
          }
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }
}
