package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.WebServiceException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's mistakes (a wrong UsernameToken password, an argument out of range, an invalid job)
 * are logged as one line each, without the stack traces CXF writes for every fault: anybody who
 * reaches the port could otherwise fill the server's log with them.
 */
class CallerMistakesLogTest {
  @TempDir Path dir;

  @Test
  void aClientsMistakesAreOneLogLineEachWithoutStackTraces() throws Exception {
    String text;
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .dataDir(dir.resolve("server"))
            .secure()
            .account(new TestAccount("alice", "alice-password-1", false, null))
            .start()) {
      JobManagement intruder =
          JobManagementClients.of(
              server, new Login.UsernameToken("alice", "not-her-password", false));
      assertThrows(WebServiceException.class, () -> intruder.listJobs(List.of(), 0, 1, false));
      JobManagement alice =
          JobManagementClients.of(server, new Login.Basic("alice", "alice-password-1"));
      assertThrows(Exception.class, () -> alice.listJobs(List.of(), 0, -1, false));
      assertThrows(
          Exception.class,
          () ->
              alice.getJobOutput(
                  "no-such-job", io.gantry.server.api.OutputStreamName.STDOUT, -5, 10));
      server.close();
      text = server.log(); // the server's own log: it runs in a process of its own
    }
    assertTrue(text.contains("refused") && text.contains("unknown user or wrong password"), text);
    // A stack trace starts with the exception's class and message: none may carry these refusals
    // (a client that hangs up early may still make Jetty log an EofException: not a refusal).
    assertFalse(
        text.lines()
            .anyMatch(
                line ->
                    line.startsWith("org.apache.cxf.binding.soap.SoapFault: unknown user")
                        || line.matches(
                            "^[a-z][\\w.]*(Fault|Exception): argument (offset|limit).*")),
        text);
    assertFalse(text.contains("\tat io.gantry.server.internal.http."), text);
    assertFalse(text.contains("not-her-password"), text);
  }
}
