package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import jakarta.xml.ws.WebServiceException;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's mistakes (a wrong UsernameToken password, an argument out of range, an invalid
 * job) are logged as one line each, without the stack traces CXF writes for every fault:
 * anybody who reaches the port could otherwise fill the server's log with them.
 */
class CallerMistakesLogTest {
  @TempDir Path dir;

  @Test
  void aClientsMistakesAreOneLogLineEachWithoutStackTraces() throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream savedErr = System.err;
    System.setErr(new PrintStream(new Both(savedErr, log), true, StandardCharsets.UTF_8));
    try {
      Path data = dir.resolve("server");
      RunningServer.addUser(data, "alice", "alice-password-1", false);
      try (RunningServer server = RunningServer.start(data, RunningServer.secureSettings())) {
        JobManagement intruder = server.cxfClient(new Login.UsernameToken("alice", "not-her-password", false));
        assertThrows(WebServiceException.class, () -> intruder.listJobs(List.of(), 0, 1, false));
        JobManagement alice = server.cxfClient(new Login.Basic("alice", "alice-password-1"));
        assertThrows(Exception.class, () -> alice.listJobs(List.of(), 0, -1, false));
        assertThrows(Exception.class, () -> alice.getJobOutput("no-such-job", io.gantry.server.api.OutputStreamName.STDOUT, -5, 10));
      }
    } finally {
      System.setErr(savedErr);
    }
    String text = log.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("refused") && text.contains("unknown user or wrong password"), text);
    // the test's own CXF client logs what it received on thread main; the server's threads are Jetty's
    assertFalse(text.lines().anyMatch(line -> line.startsWith("[qtp") && line.contains("unwinding now")), text);
    assertFalse(text.contains("\tat io.gantry.server.http."), text);
    assertFalse(text.contains("not-her-password"), text);
  }

  /** Writes to the console and to the captured log. */
  private static final class Both extends OutputStream {
    private final OutputStream console;
    private final OutputStream captured;

    Both(OutputStream console, OutputStream captured) {
      this.console = console;
      this.captured = captured;
    }

    @Override
    public synchronized void write(int c) throws java.io.IOException {
      console.write(c);
      captured.write(c);
    }

    @Override
    public synchronized void write(byte[] bytes, int off, int len) throws java.io.IOException {
      console.write(bytes, off, len);
      captured.write(bytes, off, len);
    }
  }
}
