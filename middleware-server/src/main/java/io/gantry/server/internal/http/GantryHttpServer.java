package io.gantry.server.internal.http;

import io.gantry.server.auth.UserAuthenticator;
import io.gantry.server.internal.security.TlsKeystore;
import io.gantry.server.web.RefusedRequest;
import jakarta.servlet.DispatcherType;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.apache.cxf.interceptor.Interceptor;
import org.apache.cxf.message.Message;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.MinimumDataRateHandler;
import org.eclipse.jetty.server.handler.ThreadLimitHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The HTTP face of gantry-server: one Jetty server, one servlet context, the SOAP services at
 * {@code /services/*}. Binds to exactly the configured address (loopback by default) so that
 * nothing is exposed that the operator did not ask for.
 *
 * <p>With a keystore, the one connector speaks only HTTPS: there is no plain port beside it that a
 * client could fall back to. With an authenticator, every SOAP operation needs a user: HTTP Basic
 * (the servlet filter) or a WS-Security UsernameToken (the CXF interceptors).
 */
public final class GantryHttpServer implements AutoCloseable {
  /** Adds more to the servlet context (the web application) before the server starts. */
  public interface ContextExtension {
    void addTo(ServletContextHandler context) throws Exception;
  }

  private final Server jetty;
  private final ServerConnector connector;
  private final boolean tls;

  /**
   * Bounds on what a request may make the server read.
   *
   * @param soapBodyBytes the most a SOAP request of an authenticated caller may carry
   * @param unauthenticatedBodyBytes the most a SOAP request may carry before its caller is
   *     authenticated
   * @param drain how much of a refused request's body is read so that the client reads the answer
   */
  public record RequestLimits(
      long soapBodyBytes, long unauthenticatedBodyBytes, RefusedRequest.Drain drain) {}

  /**
   * Bounds on connections, before and between requests (ServerConfig.Connections has each one's
   * setting).
   */
  public record ConnectionLimits(
      int maxConnections,
      int maxConnectionsPerAddress,
      Duration idleTimeout,
      Duration busyIdleTimeout,
      Duration requestHeadTimeout,
      int minRequestDataRate,
      int threadsPerAddress) {}

  public GantryHttpServer(
      String host,
      int port,
      Optional<TlsKeystore> keystore,
      Optional<UserAuthenticator> authenticator,
      int concurrentRequestsPerUser,
      List<SoapEndpoint> endpoints,
      List<ContextExtension> extensions,
      RequestLimits limits,
      ConnectionLimits connections)
      throws Exception {
    jetty = new Server();
    tls = keystore.isPresent();
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    connector =
        keystore
            .map(k -> httpsConnector(k, http))
            .orElseGet(() -> new ServerConnector(jetty, new HttpConnectionFactory(http)));
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(connections.idleTimeout().toMillis());
    connector.addBean(
        new ConnectionGuard(
            connections.maxConnectionsPerAddress(), connections.requestHeadTimeout()));
    jetty.addConnector(connector);
    // at the limit Jetty stops accepting and gives silent connections the shorter idle timeout
    NetworkConnectionLimit total = new NetworkConnectionLimit(connections.maxConnections(), jetty);
    total.setEndPointIdleTimeout(connections.busyIdleTimeout().toMillis());
    jetty.addBean(total);

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SESSIONS);
    context.setContextPath("/");
    List<Interceptor<? extends Message>> soapInterceptors =
        authenticator
            .map(
                a ->
                    List.<Interceptor<? extends Message>>of(
                        new UsernameTokenInterceptor(a), new AuthenticationRequiredInterceptor(a)))
            .orElse(List.of());
    context.setAttribute(RefusedRequest.DRAIN_ATTRIBUTE, limits.drain());
    // Basic first, then the body bound, which depends on whether Basic authenticated the caller
    authenticator.ifPresent(
        a ->
            context.addFilter(
                new FilterHolder(new BasicAuthenticationFilter(a)),
                "/services/*",
                EnumSet.of(DispatcherType.REQUEST)));
    // the identity provider's access tokens, then Gantry's own session tokens, beside Basic
    authenticator.ifPresent(
        a ->
            a.accessTokens()
                .ifPresent(
                    tokens ->
                        context.addFilter(
                            new FilterHolder(new AccessTokenFilter(a, tokens)),
                            "/services/*",
                            EnumSet.of(DispatcherType.REQUEST))));
    // session tokens beside Basic, before the body bound, which counts them as authenticated
    authenticator
        .flatMap(UserAuthenticator::sessionTokens)
        .ifPresent(
            tokens ->
                context.addFilter(
                    new FilterHolder(new SessionTokenFilter(tokens)),
                    "/services/*",
                    EnumSet.of(DispatcherType.REQUEST)));
    context.addFilter(
        new FilterHolder(new DeclaredCharset()), "/services/*", EnumSet.of(DispatcherType.REQUEST));
    context.addFilter(
        new FilterHolder(
            new SoapBodyLimit(
                limits.soapBodyBytes(),
                limits.unauthenticatedBodyBytes(),
                authenticator.isPresent())),
        "/services/*",
        EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(
        new ServletHolder(
            "soap",
            new SoapServlet(
                endpoints,
                soapInterceptors,
                new ConcurrentRequestLimit(concurrentRequestsPerUser))),
        "/services/*");
    for (ContextExtension extension : extensions) {
      extension.addTo(context);
    }
    // requests over the per-address bound wait, without a thread, for one of that address's to end
    // (inside it, so that waiting for a thread does not count against a body's data rate)
    Handler slowBodies =
        connections.minRequestDataRate() > 0
            ? new MinimumDataRateHandler(context, connections.minRequestDataRate(), 0)
            : context;
    ThreadLimitHandler perAddress = new ThreadLimitHandler(slowBodies, null, false);
    perAddress.setThreadLimit(connections.threadsPerAddress());
    jetty.setHandler(perAddress);
    // Do not tell clients which server software and version runs here.
    jetty.setAttribute("org.eclipse.jetty.server.Server.sendServerVersion", false);
  }

  private ServerConnector httpsConnector(TlsKeystore keystore, HttpConfiguration https) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStoreType("PKCS12");
    ssl.setKeyStorePath(keystore.file().toString());
    ssl.setKeyStorePassword(keystore.password());
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    // Clients reach a self-signed loopback server by IP address, which TLS sends no SNI name for.
    secure.setSniHostCheck(false);
    https.addCustomizer(secure);
    return new ServerConnector(jetty, ssl, new HttpConnectionFactory(https));
  }

  /** Starts listening; fails if the port is taken, naming the address. */
  public void start() throws Exception {
    start(null);
  }

  /**
   * Starts listening on {@code socket}, bound before the rest of the server started (null: binds
   * the configured address now).
   */
  public void start(ListeningSocket socket) throws Exception {
    try {
      if (socket != null) {
        connector.open(socket.handOver());
      }
      jetty.start();
    } catch (Exception e) {
      jetty.stop();
      throw new IllegalStateException(
          "cannot listen on "
              + connector.getHost()
              + ":"
              + connector.getPort()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** The address actually bound (the port is chosen by the system when configured as 0). */
  public InetSocketAddress address() {
    return new InetSocketAddress(connector.getHost(), connector.getLocalPort());
  }

  /** {@code https} or {@code http}. */
  public String scheme() {
    return tls ? "https" : "http";
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
