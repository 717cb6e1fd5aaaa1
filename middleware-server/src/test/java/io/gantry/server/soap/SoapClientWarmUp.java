package io.gantry.server.soap;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Builds a CXF client of the job-management port in the background as each test JVM starts, while
 * its first test starts its server.
 *
 * <p>The first client a JVM builds costs what every later one reuses: CXF generates a wrapper class
 * for each operation's request and response and builds the JAXB context of them all and the schema
 * of the service model. That is CPU work, mostly class loading, that took 13 s of the first test's
 * time at a load of 20 (and 20-60 s in the whole suite's runs), against 0.5 s for the next client.
 * Done here, it overlaps the first server's start, which the test waits for anyway; the first
 * client then took 3 s at a load of 25. (No call is sent: one to nowhere would have CXF log its
 * failure with a stack trace in every test JVM's output.)
 */
public final class SoapClientWarmUp implements LauncherSessionListener {
  /** False in the JVM of the fuzz tests (middleware-server's pom): they make no SOAP calls. */
  private static final String ENABLED = "gantry.test.soap-warm-up";

  /** Never called: the port is only built. */
  private static final String NOWHERE = "http://127.0.0.1:9/services/JobManagement";

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (!Boolean.parseBoolean(System.getProperty(ENABLED, "true"))) {
      return;
    }
    Thread warmUp = new Thread(() -> JobManagementClients.of(NOWHERE), "soap-client-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
  }
}
