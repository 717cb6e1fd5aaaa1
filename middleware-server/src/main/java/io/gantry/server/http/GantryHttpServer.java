package io.gantry.server.http;

import java.net.InetSocketAddress;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The HTTP face of gantry-server: one Jetty server, one servlet context, the SOAP services at
 * {@code /services/*}. Binds to exactly the configured address (loopback by default) so that
 * nothing is exposed that the operator did not ask for.
 */
public final class GantryHttpServer implements AutoCloseable {
  private final Server jetty;
  private final ServerConnector connector;

  public GantryHttpServer(String host, int port, List<SoapEndpoint> endpoints) {
    jetty = new Server();
    connector = new ServerConnector(jetty);
    connector.setHost(host);
    connector.setPort(port);
    jetty.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SESSIONS);
    context.setContextPath("/");
    context.addServlet(new ServletHolder("soap", new SoapServlet(endpoints)), "/services/*");
    jetty.setHandler(context);
    // Do not tell clients which server software and version runs here.
    jetty.setAttribute("org.eclipse.jetty.server.Server.sendServerVersion", false);
  }

  /** Starts listening; fails if the port is taken, naming the address. */
  public void start() throws Exception {
    try {
      jetty.start();
    } catch (Exception e) {
      jetty.stop();
      throw new IllegalStateException("cannot listen on " + connector.getHost() + ":"
          + connector.getPort() + ": " + e.getMessage(), e);
    }
  }

  /** The address actually bound (the port is chosen by the system when configured as 0). */
  public InetSocketAddress address() {
    return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
