package io.gantry.server.internal.http;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;

/**
 * The server's listening socket, bound before anything else starts: a port another process holds is
 * named at once, before keys, stores or job directories are touched, and no other process can take
 * the port while the rest of the server starts (Jetty's connector listens on this very socket,
 * {@link GantryHttpServer#start(ListeningSocket)}).
 */
public final class ListeningSocket implements AutoCloseable {
  private final ServerSocketChannel channel;
  private boolean handedOver;

  private ListeningSocket(ServerSocketChannel channel) {
    this.channel = channel;
  }

  /**
   * Binds {@code host:port} (0: a free port), as Jetty would (address reuse for TIME_WAIT only).
   *
   * @param setting the setting that names the port, for the message
   * @throws BindException "address already in use: HOST:PORT (SETTING)" when the port is taken
   */
  public static ListeningSocket bind(String host, int port, String setting) throws IOException {
    ServerSocketChannel channel = ServerSocketChannel.open();
    try {
      channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      channel.bind(new InetSocketAddress(host, port));
      return new ListeningSocket(channel);
    } catch (BindException e) {
      channel.close();
      BindException named =
          new BindException(
              (isInUse(e) ? "address already in use: " : "cannot listen on ")
                  + host
                  + ":"
                  + port
                  + " ("
                  + setting
                  + ")"
                  + (isInUse(e) ? "" : ": " + e.getMessage()));
      named.initCause(e);
      throw named;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static boolean isInUse(BindException e) {
    return e.getMessage() != null
        && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("in use");
  }

  /** The bound port (the system's choice when 0 was asked for). */
  public int port() {
    return channel.socket().getLocalPort();
  }

  /** The channel, for the connector that listens on it from now on (and closes it). */
  ServerSocketChannel handOver() {
    handedOver = true;
    return channel;
  }

  /** Closes the socket unless a connector took it over (a start that failed before). */
  @Override
  public void close() throws IOException {
    if (!handedOver) {
      channel.close();
    }
  }
}
