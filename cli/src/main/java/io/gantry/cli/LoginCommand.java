package io.gantry.cli;

import io.gantry.cli.internal.soap.SoapFaultException;
import io.gantry.cli.soap.AccessDeniedFault;
import io.gantry.cli.soap.JobManagement;
import io.gantry.cli.soap.SessionToken;
import io.gantry.soap.FingerprintTrustManager;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry login}: makes a server, a user name and the server's certificate the defaults of
 * every later command.
 *
 * <ol>
 *   <li>Over https, the certificate to trust is the one --server-fingerprint names, or, on a
 *       terminal, the one the server presents, once the user has seen its fingerprint and said yes.
 *       Trusting a certificate nobody looked at would trust whoever answers at that address, so
 *       without a terminal and without a fingerprint login refuses (exit 2).
 *   <li>The password (GANTRY_PASSWORD, else typed without echo) is checked with one authenticated
 *       call over a connection that trusts only that certificate.
 *   <li>Only then are server, user name and fingerprint stored in the {@link LoginFile}, never the
 *       password; any failure before stores nothing.
 * </ol>
 */
@Command(
    name = "login",
    mixinStandardHelpOptions = true,
    description = {
      "Confirm a server's certificate, check your password, and store the server, your"
          + " user name and the certificate's SHA-256 fingerprint (never the password) as the defaults"
          + " of every other command.",
      "Over https the server's certificate fingerprint is shown and you are asked to trust it;"
          + " compare it with the one gantry-server printed at start. Without a terminal, give it"
          + " with --server-fingerprint (or GANTRY_SERVER_FINGERPRINT): login never trusts a"
          + " certificate nobody has checked. The password comes from GANTRY_PASSWORD, else a"
          + " prompt that does not echo.",
      "Options and environment variables still override the stored login; its user and"
          + " fingerprint apply only to its server. Run login again when the server's certificate"
          + " changes. The login is stored, readable by you only (mode 0600), in:",
      "  $GANTRY_CONFIG, else",
      "  $XDG_CONFIG_HOME/gantry/config.properties, else",
      "  ~/.config/gantry/config.properties"
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry login --server https://hpc-gw.example.org:8443 --user alice",
      "  GANTRY_PASSWORD=... gantry login --server https://hpc-gw.example.org:8443 \\",
      "      --user alice --server-fingerprint 3F:A2:...:9C     # in a script",
      "%nExit codes:%n"
          + "  0  logged in; the login is stored%n"
          + "  1  you did not trust the certificate%n"
          + "  2  usage error: no terminal and no --server-fingerprint, no user name or%n"
          + "     password, or the login file cannot be read or written%n"
          + "  3  the server cannot be reached, its certificate is not the one pinned, or it%n"
          + "     refused the user name and password"
    })
final class LoginCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // a login establishes trust afresh: a fingerprint stored before is what it may replace
    ServerSettings settings = gantry.settings().withoutStoredFingerprint();
    settings = settings.as(userName(settings));
    String fingerprint = settings.https() ? trustedFingerprint(settings) : null;
    settings = settings.pinnedTo(fingerprint);
    Optional<SessionToken> token = checkPassword(settings);
    LoginFile file = gantry.loginFile();
    StoredLogin stored =
        new StoredLogin(
            settings.server(),
            settings.user(),
            fingerprint,
            token.map(SessionToken::getToken).orElse(null),
            token.map(SessionToken::getTokenId).orElse(null));
    file.write(stored);
    report(settings, file, stored, token.map(t -> Times.text(t.getExpires())).orElse(null));
    return ExitCodes.OK;
  }

  private String userName(ServerSettings settings) {
    if (settings.user() != null) {
      return settings.user();
    }
    String typed =
        gantry
            .terminal()
            .map(t -> t.readLine("User name at " + settings.server() + ": "))
            .orElse(null);
    if (typed == null || typed.isBlank()) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "no user name: give --user NAME or set GANTRY_USER");
    }
    return typed.strip();
  }

  /** The fingerprint given, or the one the server presents once the user has confirmed it. */
  private String trustedFingerprint(ServerSettings settings) {
    if (settings.fingerprint() != null) {
      try {
        return FingerprintTrustManager.canonical(settings.fingerprint());
      } catch (IllegalArgumentException e) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO, "--server-fingerprint: " + e.getMessage(), e);
      }
    }
    Terminal terminal =
        gantry
            .terminal()
            .orElseThrow(
                () ->
                    new CommandFailure(
                        ExitCodes.USAGE_OR_IO,
                        "no terminal to confirm the certificate of "
                            + settings.server()
                            + " on, and trusting it unseen would"
                            + " trust whoever answers there: give the fingerprint gantry-server printed at start with"
                            + " --server-fingerprint or GANTRY_SERVER_FINGERPRINT; nothing was stored"));
    X509Certificate certificate = presentedCertificate(settings.server());
    String fingerprint = fingerprintOf(certificate);
    PrintWriter err = spec.commandLine().getErr();
    err.println("The server at " + settings.server() + " presents this certificate:");
    err.println("  subject:             " + certificate.getSubjectX500Principal().getName());
    err.println("  valid until:         " + certificate.getNotAfter().toInstant());
    err.println("  SHA-256 fingerprint: " + fingerprint);
    err.println(
        "Compare the fingerprint with the one gantry-server printed at start (ask its operator).");
    err.flush();
    String answer = terminal.readLine("Trust this certificate? [y/N] ");
    if (answer == null || !List.of("y", "yes").contains(answer.strip().toLowerCase(Locale.ROOT))) {
      throw new CommandFailure(
          ExitCodes.NEGATIVE, "the certificate was not trusted; nothing was stored");
    }
    return fingerprint;
  }

  private static X509Certificate presentedCertificate(String server) {
    try {
      return ServerCertificate.presentedBy(server);
    } catch (IOException | IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCodes.SERVER,
          "cannot fetch the certificate of the Gantry server at "
              + server
              + " ("
              + e.getMessage()
              + "); is it running? nothing was stored",
          e);
    }
  }

  private static String fingerprintOf(X509Certificate certificate) {
    try {
      return FingerprintTrustManager.fingerprintOf(certificate);
    } catch (CertificateException e) {
      throw new CommandFailure(
          ExitCodes.SERVER, "the server's certificate cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Checks the password with one authenticated call, issueSessionToken, over a connection that
   * trusts only the confirmed certificate: a wrong password fails here, before anything is stored.
   * A server that issues no tokens (no accounts, or older than session tokens) gets the old check,
   * listJobs, and the login works with passwords as before.
   */
  private Optional<SessionToken> checkPassword(ServerSettings settings) {
    String password = gantry.password(settings);
    if (password == null) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO,
          "no password: set GANTRY_PASSWORD or run gantry login on a terminal; nothing was stored");
    }
    try {
      ServerConnection server = gantry.connect(settings, password);
      Optional<SessionToken> token = server.call(s -> issued(s, description()));
      if (token.isEmpty()) {
        server.call(s -> s.listJobs(List.of(), 0, 1, false));
      }
      return token;
    } catch (CommandFailure e) {
      throw new CommandFailure(e.exitCode(), e.getMessage() + "; nothing was stored", e);
    }
  }

  private static Optional<SessionToken> issued(JobManagement service, String description) {
    try {
      return Optional.of(service.issueSessionToken(description));
    } catch (AccessDeniedFault e) {
      return Optional.empty(); // a server without accounts needs none
    } catch (SoapFaultException e) {
      if (!"Client".equals(e.faultCode())) {
        throw e;
      }
      return Optional.empty(); // a server older than session tokens does not know the operation
    }
  }

  /** What listings of the user's sessions show for this one. */
  private static String description() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "an unknown host";
    }
    return "gantry CLI on " + host;
  }

  private void report(ServerSettings settings, LoginFile file, StoredLogin stored, String expires) {
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("server", settings.server());
      json.put("user", settings.user());
      json.put("serverFingerprint", settings.fingerprint());
      json.put("loginFile", file.path().toString());
      json.put("sessionToken", stored.token() != null);
      json.put("sessionExpires", expires);
      JsonOutput.print(out, json);
    } else if (!gantry.quiet) {
      out.println(
          "logged in to "
              + settings.server()
              + " as "
              + settings.user()
              + "; stored in "
              + file.path()
              + (stored.token() == null
                  ? " (no password)"
                  : " (no password; a session token valid until "
                      + expires
                      + ": gantry logout ends it)"));
    }
    out.flush();
  }
}
