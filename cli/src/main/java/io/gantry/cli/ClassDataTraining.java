package io.gantry.cli;

import io.gantry.cli.internal.soap.HttpEndpoint;
import io.gantry.cli.internal.soap.SoapClient;
import io.gantry.cli.soap.JobManagement;
import io.gantry.soap.FingerprintTrustManager;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The run {@code bin/gantry} records a class-data sharing archive from (java
 * -XX:ArchiveClassesAtExit): it loads what every server command loads, without a server: the
 * command line, the generated client, JAXB's binding of a request and an answer, and the JDK's
 * HTTPS client up to a refused connection. Later commands map those classes from the archive
 * instead of finding, reading and verifying them in jars, which is most of a JVM's start-up work.
 */
final class ClassDataTraining {
  private ClassDataTraining() {}

  public static void main(String[] args) throws Exception {
    StringWriter ignored = new StringWriter();
    var commandLine = GantryCommand.commandLine(Map.of(), Optional.empty());
    commandLine.setOut(new PrintWriter(ignored));
    commandLine.setErr(new PrintWriter(ignored));
    for (String command : new String[] {"status", "list", "submit", "wait", "output", "login"}) {
      commandLine.execute(command, "--help");
    }
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new FingerprintTrustManager("00".repeat(32))}, null);
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    for (String scheme : new String[] {"https", "http"}) {
      JobManagement port =
          SoapClient.create(
              JobManagement.class,
              new HttpEndpoint(
                  scheme + "://127.0.0.1:" + closedPort + ServerConnection.ENDPOINT_PATH,
                  tls.getSocketFactory(),
                  Credential.token("training").authorization(),
                  1000,
                  1000));
      try {
        port.getJobStatus("training");
      } catch (RuntimeException expected) {
        // nothing listens: the request was written, the connection refused
      }
    }
  }
}
