package io.gantry.cli;

import io.gantry.cli.internal.soap.HttpEndpoint;
import io.gantry.cli.internal.soap.HttpStatusException;
import io.gantry.cli.internal.soap.SoapClient;
import io.gantry.cli.internal.soap.SoapFaultException;
import io.gantry.cli.soap.AccessDeniedFault;
import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.JobNotFoundFault;
import io.gantry.cli.soap.JobStateFault;
import io.gantry.cli.soap.LimitExceededFault;
import io.gantry.soap.FingerprintTrustManager;
import jakarta.xml.ws.WebServiceException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The job-management endpoint of one Gantry server, through a port of the service endpoint
 * interface generated from the published WSDL. Every call goes through {@link #call}, which turns
 * the ways a call can fail into the CLI's exit codes with a message that names the server.
 *
 * <p>This is the one place where a command gets its port: {@link SoapClient} over the JDK's HTTP
 * client (see cli/README.md, "How it talks to the server", for why not a full SOAP stack). It
 * implements the generated interface generically, so an operation added to the WSDL is callable
 * here as soon as the interface is generated again.
 */
final class ServerConnection {
  static final String ENDPOINT_PATH = "/services/JobManagement";
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
  // killJob answers once the job has ended, which can take the server's kill grace period
  private static final int RECEIVE_TIMEOUT_MILLIS = 120_000;

  /** One SOAP operation; the typed faults of the contract may escape it. */
  interface Operation<T> {
    T on(JobManagement service) throws Exception;
  }

  private final String endpoint;
  private final String user;
  private final Credential credential;
  private final String untrustedAdvice;
  private final JobManagement service;

  /**
   * @param server the server's base URL (the endpoint path is appended unless already there)
   * @param user HTTP Basic user name, or null
   */
  ServerConnection(String server, String user, String password) {
    this(new ServerSettings(server, user, null, null), password);
  }

  /** As the settings' user with a password (HTTP Basic), or without a user, anonymously. */
  ServerConnection(ServerSettings settings, String password) {
    this(settings, Credential.password(settings.user(), password));
  }

  /**
   * Over https, trusts only the certificate with the settings' SHA-256 fingerprint, or without one,
   * the JDK's certificate authorities.
   */
  ServerConnection(ServerSettings settings, Credential credential) {
    this.endpoint = endpointOf(settings.server());
    this.user = settings.user();
    this.credential = credential;
    this.untrustedAdvice =
        settings.pinnedBy() == null
            ? "give the fingerprint it printed at start with --server-fingerprint or GANTRY_SERVER_FINGERPRINT"
                + " (gantry login stores it)"
            : "it is not the certificate you confirmed with gantry login (pinned in "
                + settings.pinnedBy()
                + "); if the server's certificate was replaced, check the new fingerprint with its operator"
                + " and run gantry login again";
    String fingerprint = settings.fingerprint();
    SSLSocketFactory tls =
        fingerprint == null || fingerprint.isBlank() ? null : pinnedTo(fingerprint);
    this.service =
        SoapClient.create(
            JobManagement.class,
            new HttpEndpoint(
                endpoint,
                tls,
                credential.authorization(),
                CONNECT_TIMEOUT_MILLIS,
                RECEIVE_TIMEOUT_MILLIS));
  }

  /** TLS that trusts exactly the certificate with this fingerprint (and checks the host name). */
  private static SSLSocketFactory pinnedTo(String fingerprint) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new FingerprintTrustManager(fingerprint)}, null);
      return context.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS in this Java runtime: " + e.getMessage(), e);
    }
  }

  static String endpointOf(String server) {
    String base = server.strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base.endsWith(ENDPOINT_PATH) ? base : base + ENDPOINT_PATH;
  }

  String endpoint() {
    return endpoint;
  }

  <T> T call(Operation<T> operation) {
    try {
      return operation.on(service);
    } catch (JobNotFoundFault e) {
      throw new CommandFailure(
          ExitCodes.NOT_FOUND,
          detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (JobStateFault e) {
      throw new CommandFailure(
          ExitCodes.NEGATIVE,
          detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (LimitExceededFault e) {
      throw new CommandFailure(
          ExitCodes.NEGATIVE,
          detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (AccessDeniedFault e) {
      throw new CommandFailure(
          ExitCodes.SERVER,
          "access denied: "
              + detail(e.getFaultInfo() == null ? null : e.getFaultInfo().getMessage(), e));
    } catch (SoapFaultException e) {
      if ("Client".equals(e.faultCode())
          && e.getMessage() != null
          && e.getMessage().startsWith("argument ")) {
        // the server names the argument it refuses (a malformed cron expression, a path outside
        // the job directory): a usage error, said in the server's words
        throw new CommandFailure(ExitCodes.USAGE_OR_IO, e.getMessage(), e);
      }
      throw new CommandFailure(
          ExitCodes.SERVER,
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
      throw new CommandFailure(ExitCodes.NEGATIVE, e.getMessage(), e);
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
            ExitCodes.SERVER,
            "cannot connect to the Gantry server at "
                + endpoint
                + " ("
                + reason(t)
                + "); is it running? Set --server or GANTRY_SERVER",
            e);
      }
      if (t instanceof UnknownHostException) {
        return new CommandFailure(
            ExitCodes.SERVER,
            "cannot connect to the Gantry server at "
                + endpoint
                + ": unknown host "
                + t.getMessage(),
            e);
      }
      if (t instanceof SocketTimeoutException) {
        return new CommandFailure(
            ExitCodes.SERVER,
            "the Gantry server at " + endpoint + " did not answer in time (" + t.getMessage() + ")",
            e);
      }
      if (t instanceof SSLHandshakeException) {
        return new CommandFailure(
            ExitCodes.SERVER,
            "the Gantry server at "
                + endpoint
                + " is not trusted ("
                + reason(t)
                + "); "
                + untrustedAdvice,
            e);
      }
      if (t instanceof HttpStatusException http) {
        return httpFailure(http, e);
      }
    }
    return new CommandFailure(
        ExitCodes.SERVER,
        "cannot talk to the Gantry server at " + endpoint + ": " + e.getMessage(),
        e);
  }

  /** "Connection refused" rather than CXF's "ConnectException invoking URL: Connection refused". */
  private static String reason(Throwable t) {
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int colon = message.lastIndexOf(": ");
    return colon < 0 ? message : message.substring(colon + 2);
  }

  private CommandFailure httpFailure(HttpStatusException http, Exception e) {
    int code = http.status();
    if (code == 401 && credential.isToken()) {
      return new CommandFailure(
          ExitCodes.SERVER,
          "the Gantry server at "
              + endpoint
              + " no longer accepts your session as user "
              + user
              + " ("
              + http.reason()
              + "); run gantry login again",
          e);
    }
    if (code == 401 || code == 403) {
      String who =
          user == null ? "without a user name (use --user and GANTRY_PASSWORD)" : "as user " + user;
      return new CommandFailure(
          ExitCodes.SERVER,
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
          ExitCodes.SERVER,
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
          ExitCodes.SERVER,
          "no Gantry job service at " + endpoint + " (HTTP 404); check --server",
          e);
    }
    return new CommandFailure(
        ExitCodes.SERVER,
        "the Gantry server at " + endpoint + " answered HTTP " + code + " " + http.reason(),
        e);
  }
}
