package io.gantry.server.soap;

import io.gantry.server.api.JobManagement;
import jakarta.xml.ws.WebServiceException;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Builds a CXF client of the job-management port, and sends one call with it, in the background as
 * each test JVM starts, while its first test starts its server.
 *
 * <p>The first client a JVM builds costs what every later one reuses: CXF generates a wrapper class
 * for each operation's request and response and builds the JAXB context of them all and the schema
 * of the service model, and the first call loads the marshalling and HTTP transport classes. That
 * is CPU work, mostly class loading, that took 13 s of the first test's time at a load of 20 (and
 * 20-60 s in the whole suite's runs), against 0.5 s for the next client. Done here, it overlaps the
 * first server's start, which the test waits for anyway; the first client then took 3 s at a load
 * of 25. What remains of the first call is mostly the new server's own first request.
 */
public final class SoapClientWarmUp implements LauncherSessionListener {
  /** Nothing listens there (the discard port): the call fails once its message is written. */
  private static final String NOWHERE = "http://127.0.0.1:9/services/JobManagement";

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    Thread warmUp = new Thread(SoapClientWarmUp::buildAndCall, "soap-client-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
  }

  private static void buildAndCall() {
    JobManagement client = JobManagementClients.of(NOWHERE);
    try {
      client.getServerInfo();
    } catch (WebServiceException expected) {
      // connection refused: the message was marshalled and the transport loaded, which is the point
    }
  }
}
