package io.gantry.cli;

import io.gantry.cli.soap.AccessDeniedFault;
import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobNotFoundFault;
import io.gantry.cli.soap.JobStateFault;
import io.gantry.cli.soap.LimitExceededFault;
import io.gantry.soap.FingerprintTrustManager;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManager;
import org.apache.cxf.configuration.jsse.TLSClientParameters;
import org.apache.cxf.configuration.security.AuthorizationPolicy;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.transport.http.HTTPConduit;
import org.apache.cxf.transport.http.HTTPException;
import org.apache.cxf.transports.http.configuration.HTTPClientPolicy;

/**
 * The job-management endpoint of one Gantry server, through the client generated from the published
 * WSDL. Every call goes through {@link #call}, which turns the ways a call can fail into the CLI's
 * exit codes with a message that names the server.
 */
final class ServerConnection {
  static final String ENDPOINT_PATH = "/services/JobManagement";

  /** One SOAP operation; the typed faults of the contract may escape it. */
  interface Operation<T> {
    T on(JobManagement service) throws Exception;
  }

  private final String endpoint;
  private final String user;
  private final String untrustedAdvice;
  private final JobManagement service;

  /**
   * @param server the server's base URL (the endpoint path is appended unless already there)
   * @param user HTTP Basic user name, or null
   */
  ServerConnection(String server, String user, String password) {
    this(new ServerSettings(server, user, null, null), password);
  }

  /**
   * Over https, trusts only the certificate with the settings' SHA-256 fingerprint, or without one,
   * the JDK's certificate authorities.
   */
  ServerConnection(ServerSettings settings, String password) {
    this.endpoint = endpointOf(settings.server());
    this.user = settings.user();
    this.untrustedAdvice =
        settings.pinnedBy() == null
            ? "give the fingerprint it printed at start with --server-fingerprint or GANTRY_SERVER_FINGERPRINT"
                + " (gantry login stores it)"
            : "it is not the certificate you confirmed with gantry login (pinned in "
                + settings.pinnedBy()
                + "); if the server's certificate was replaced, check the new fingerprint with its operator"
                + " and run gantry login again";
    // proxy from the annotated interface: no WSDL fetch at start-up, one round trip less per
    // command
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setServiceClass(JobManagement.class);
    factory.setAddress(endpoint);
    this.service = (JobManagement) factory.create();
    configure(ClientProxy.getClient(service), user, password);
    String fingerprint = settings.fingerprint();
    if (fingerprint != null && !fingerprint.isBlank()) {
      TLSClientParameters tls = new TLSClientParameters();
      tls.setTrustManagers(new TrustManager[] {new FingerprintTrustManager(fingerprint)});
      ((HTTPConduit) ClientProxy.getClient(service).getConduit()).setTlsClientParameters(tls);
    }
  }

  static String endpointOf(String server) {
    String base = server.strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base.endsWith(ENDPOINT_PATH) ? base : base + ENDPOINT_PATH;
  }

  private static void configure(Client client, String user, String password) {
    HTTPConduit conduit = (HTTPConduit) client.getConduit();
    HTTPClientPolicy policy = new HTTPClientPolicy();
    policy.setConnectionTimeout(10_000);
    // killJob answers once the job has ended, which can take the server's kill grace period
    policy.setReceiveTimeout(120_000);
    policy.setAllowChunking(false);
    conduit.setClient(policy);
    if (user != null) {
      AuthorizationPolicy auth = new AuthorizationPolicy();
      auth.setUserName(user);
      auth.setPassword(password == null ? "" : password);
      auth.setAuthorizationType("Basic");
      conduit.setAuthorization(auth);
    }
  }

  String endpoint() {
    return endpoint;
  }

  <T> T call(Operation<T> operation) {
    try {
      return operation.on(service);
    } catch (JobNotFoundFault e) {
      throw new CommandFailure(
          GantryCommand.EXIT_NOT_FOUND,
          detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (JobStateFault e) {
      throw new CommandFailure(
          GantryCommand.EXIT_NEGATIVE,
          detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (LimitExceededFault e) {
      throw new CommandFailure(
          GantryCommand.EXIT_NEGATIVE,
          detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (AccessDeniedFault e) {
      throw new CommandFailure(
          GantryCommand.EXIT_SERVER,
          "access denied: "
              + detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (SOAPFaultException e) {
      throw new CommandFailure(
          GantryCommand.EXIT_SERVER,
          "the server at " + endpoint + " could not answer: " + e.getMessage(),
          e);
    } catch (WebServiceException e) {
      throw transportFailure(e);
    } catch (CommandFailure e) {
      throw e;
    } catch (RuntimeException e) {
      throw transportFailure(e);
    } catch (Exception e) {
      // a typed fault the caller did not expect here, e.g. InvalidJobFault outside submit
      throw new CommandFailure(GantryCommand.EXIT_NEGATIVE, e.getMessage(), e);
    }
  }

  private static String detail(String faultMessage, Exception e) {
    return faultMessage != null ? faultMessage : e.getMessage();
  }

  /** Connection refused, unknown host, HTTP errors: say which server and what to check. */
  private CommandFailure transportFailure(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
        return new CommandFailure(
            GantryCommand.EXIT_SERVER,
            "cannot connect to the Gantry server at "
                + endpoint
                + " ("
                + reason(t)
                + "); is it running? Set --server or GANTRY_SERVER",
            e);
      }
      if (t instanceof UnknownHostException) {
        return new CommandFailure(
            GantryCommand.EXIT_SERVER,
            "cannot connect to the Gantry server at "
                + endpoint
                + ": unknown host "
                + t.getMessage(),
            e);
      }
      if (t instanceof SocketTimeoutException) {
        return new CommandFailure(
            GantryCommand.EXIT_SERVER,
            "the Gantry server at " + endpoint + " did not answer in time (" + t.getMessage() + ")",
            e);
      }
      if (t instanceof SSLHandshakeException) {
        return new CommandFailure(
            GantryCommand.EXIT_SERVER,
            "the Gantry server at "
                + endpoint
                + " is not trusted ("
                + reason(t)
                + "); "
                + untrustedAdvice,
            e);
      }
      if (t instanceof HTTPException http) {
        return httpFailure(http, e);
      }
    }
    return new CommandFailure(
        GantryCommand.EXIT_SERVER,
        "cannot talk to the Gantry server at " + endpoint + ": " + e.getMessage(),
        e);
  }

  /** "Connection refused" rather than CXF's "ConnectException invoking URL: Connection refused". */
  private static String reason(Throwable t) {
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int colon = message.lastIndexOf(": ");
    return colon < 0 ? message : message.substring(colon + 2);
  }

  private CommandFailure httpFailure(HTTPException http, Exception e) {
    int code = http.getResponseCode();
    if (code == 401 || code == 403) {
      String who =
          user == null ? "without a user name (use --user and GANTRY_PASSWORD)" : "as user " + user;
      return new CommandFailure(
          GantryCommand.EXIT_SERVER,
          "the Gantry server at "
              + endpoint
              + " refused the request "
              + who
              + " (HTTP "
              + code
              + ")",
          e);
    }
    if (code == 429) {
      return new CommandFailure(
          GantryCommand.EXIT_SERVER,
          "the Gantry server at "
              + endpoint
              + " holds back logins as user "
              + user
              + " from here after too many wrong passwords (HTTP 429);"
              + " wait a little, then try again with the right password",
          e);
    }
    if (code == 404) {
      return new CommandFailure(
          GantryCommand.EXIT_SERVER,
          "no Gantry job service at " + endpoint + " (HTTP 404); check --server",
          e);
    }
    return new CommandFailure(
        GantryCommand.EXIT_SERVER,
        "the Gantry server at "
            + endpoint
            + " answered HTTP "
            + code
            + " "
            + http.getResponseMessage(),
        e);
  }
}
