package io.gantry.server.internal.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Jetty has no limit for: connections per remote address, and how long a TLS handshake or a
 * request head may take to arrive. Jetty parses without a thread per connection, and its idle
 * timeout restarts with every byte, so a client trickling a byte every few seconds ("slow loris")
 * would keep a connection, and the descriptor under it, for as long as it likes; a few thousand
 * such connections exhaust the server's descriptors.
 *
 * <p>A connection over {@code perAddress} from one address is closed as soon as it opens. Every
 * second a sweep looks at the open connections: one whose TLS handshake, or whose request head
 * (from its first byte to the end of its headers), has taken longer than {@code headTimeout} is
 * closed. A connection that sends nothing at all is left to the idle timeout; a body that arrives
 * too slowly to Jetty's minimum request data rate.
 */
final class ConnectionGuard extends AbstractLifeCycle implements Connection.Listener {
  private static final Logger log = LoggerFactory.getLogger(ConnectionGuard.class);
  private static final long SWEEP_MILLIS = 500;

  private final int perAddress;
  private final long headTimeoutNanos;
  private final Duration headTimeout;
  private final Map<InetAddress, AtomicInteger> openPerAddress = new ConcurrentHashMap<>();

  /**
   * The connections watched, with when they were first seen waiting for a handshake or a head
   * ({@link #NOT_WAITING} while they are not).
   */
  private final Map<Connection, Long> watched = new ConcurrentHashMap<>();

  private final AtomicInteger refusedSinceSweep = new AtomicInteger();
  private ScheduledExecutorService sweeper;
  private ScheduledFuture<?> sweeping;

  private static final long NOT_WAITING = Long.MIN_VALUE;

  ConnectionGuard(int perAddress, Duration headTimeout) {
    this.perAddress = perAddress;
    this.headTimeout = headTimeout;
    this.headTimeoutNanos = headTimeout.toNanos();
  }

  @Override
  protected void doStart() {
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "gantry-http-connection-guard");
              thread.setDaemon(true);
              return thread;
            });
    sweeping =
        sweeper.scheduleWithFixedDelay(
            this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
  }

  @Override
  protected void doStop() {
    sweeping.cancel(false);
    sweeper.shutdownNow();
  }

  @Override
  public void onOpened(Connection connection) {
    EndPoint endPoint = connection.getEndPoint();
    if (endPoint instanceof SocketChannelEndPoint) {
      // the network-level connection (the TLS one under HTTPS): one per socket
      InetAddress address = address(endPoint);
      if (address != null
          && openPerAddress.computeIfAbsent(address, a -> new AtomicInteger()).incrementAndGet()
              > perAddress) {
        refusedSinceSweep.incrementAndGet();
        endPoint.close();
        return;
      }
    }
    if (connection instanceof SslConnection ssl) {
      // waiting for its handshake from the start
      watched.put(ssl, System.nanoTime());
      ssl.addHandshakeListener(
          new SslHandshakeListener() {
            @Override
            public void handshakeSucceeded(Event event) {
              watched.remove(ssl);
            }
          });
    } else if (connection instanceof HttpConnection) {
      watched.put(connection, NOT_WAITING);
    }
  }

  @Override
  public void onClosed(Connection connection) {
    watched.remove(connection);
    EndPoint endPoint = connection.getEndPoint();
    if (endPoint instanceof SocketChannelEndPoint) {
      InetAddress address = address(endPoint);
      if (address != null) {
        openPerAddress.computeIfPresent(
            address, (a, count) -> count.decrementAndGet() <= 0 ? null : count);
      }
    }
  }

  private static InetAddress address(EndPoint endPoint) {
    SocketAddress remote = endPoint.getRemoteSocketAddress();
    return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }

  /** Closes the connections whose handshake or request head has been arriving for too long. */
  private void sweep() {
    long now = System.nanoTime();
    int closed = 0;
    for (Connection connection : List.copyOf(watched.keySet())) {
      Long seen = watched.get(connection);
      if (seen == null) {
        continue; // closed meanwhile
      }
      boolean waiting =
          connection instanceof HttpConnection http
              ? http.getParser().inHeaderState() && !http.getParser().isStart()
              : true; // an SslConnection is watched only until its handshake succeeded
      long since = seen;
      if (!waiting) {
        if (since != NOT_WAITING) {
          watched.replace(connection, since, NOT_WAITING);
        }
      } else if (since == NOT_WAITING) {
        watched.replace(connection, NOT_WAITING, now);
      } else if (now - since >= headTimeoutNanos) {
        watched.remove(connection);
        connection.getEndPoint().close();
        closed++;
      }
    }
    int refused = refusedSinceSweep.getAndSet(0);
    if (closed > 0) {
      log.warn(
          "closed {} connection(s) whose TLS handshake or request head took longer than {}"
              + " (http.request-head-timeout)",
          closed,
          headTimeout);
    }
    if (refused > 0) {
      log.warn(
          "closed {} connection(s) over {} from one address (http.max-connections-per-address)",
          refused,
          perAddress);
    }
  }
}
