package io.gantry.server.soap;

import io.gantry.server.api.JobManagement;
import io.gantry.soap.FingerprintTrustManager;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.TrustManager;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import org.apache.cxf.configuration.jsse.TLSClientParameters;
import org.apache.cxf.configuration.security.AuthorizationPolicy;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.transport.http.HTTPConduit;
import org.apache.cxf.transports.http.configuration.HTTPClientPolicy;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.ext.WSPasswordCallback;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.handler.WSHandlerConstants;

/**
 * CXF clients of the job-management port, as a Java user of Gantry would write them, for a {@link
 * GantryTestServer} (the one server fixture) or any URL. {@link RawSoapClient} speaks to the same
 * port with no CXF at all.
 */
public final class JobManagementClients {
  private JobManagementClients() {}

  /** An anonymous client of {@code server} (plain HTTP, no accounts). */
  public static JobManagement of(GantryTestServer server) {
    return of(server.url());
  }

  /** A client that trusts {@code server}'s certificate by its fingerprint and logs in so. */
  public static JobManagement of(GantryTestServer server, Login login) {
    return of(server.url(), server.fingerprint().orElse(null), login);
  }

  /** A limit, never an expectation: a refused connection fails at once. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(60);

  public static JobManagement of(String url) {
    return of(url, null, Login.ANONYMOUS);
  }

  /**
   * A client of {@code url}; over https it trusts only the certificate with {@code fingerprint}
   * (SHA-256), as a user who was told the fingerprint would configure it.
   */
  public static JobManagement of(String url, String fingerprint, Login login) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setServiceClass(JobManagement.class);
    factory.setAddress(url);
    if (login instanceof Login.UsernameToken token) {
      factory.getOutInterceptors().add(usernameToken(token));
    }
    JobManagement port = (JobManagement) factory.create();
    Client client = ClientProxy.getClient(port);
    HTTPClientPolicy policy = new HTTPClientPolicy();
    // connecting includes the TLS handshake, the server's work: a server starved of CPU (the
    // first of a fork, while every test JVM of the build starts) took over 10 s to answer one
    policy.setConnectionTimeout(Await.scaled(CONNECT_TIMEOUT).toMillis());
    policy.setReceiveTimeout(60_000);
    HTTPConduit conduit = (HTTPConduit) client.getConduit();
    conduit.setClient(policy);
    if (fingerprint != null) {
      TLSClientParameters tls = new TLSClientParameters();
      tls.setTrustManagers(new TrustManager[] {new FingerprintTrustManager(fingerprint)});
      conduit.setTlsClientParameters(tls);
    }
    if (login instanceof Login.Basic basic) {
      AuthorizationPolicy authorization = new AuthorizationPolicy();
      authorization.setUserName(basic.user());
      authorization.setPassword(basic.password());
      authorization.setAuthorizationType("Basic");
      conduit.setAuthorization(authorization);
    }
    return port;
  }

  /** The SOAP 1.2 binding of the same service. */
  public static String soap12Url(GantryTestServer server) {
    return server.url().replace("/services/", "/services/soap12/");
  }

  private static WSS4JOutInterceptor usernameToken(Login.UsernameToken token) {
    Map<String, Object> settings = new HashMap<>();
    settings.put(WSHandlerConstants.ACTION, WSHandlerConstants.USERNAME_TOKEN);
    settings.put(WSHandlerConstants.USER, token.user());
    settings.put(
        WSHandlerConstants.PASSWORD_TYPE,
        token.digest() ? WSConstants.PW_DIGEST : WSConstants.PW_TEXT);
    CallbackHandler passwords =
        callbacks -> {
          for (Callback c : callbacks) {
            ((WSPasswordCallback) c).setPassword(token.password());
          }
        };
    settings.put(WSHandlerConstants.PW_CALLBACK_REF, passwords);
    return new WSS4JOutInterceptor(settings);
  }
}
