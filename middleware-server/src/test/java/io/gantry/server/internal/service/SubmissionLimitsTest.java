package io.gantry.server.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/** A user's unfinished jobs are bounded, with a fault that says which limit and what to do. */
class SubmissionLimitsTest {
  @TempDir Path dir;
  private GantryTestServer server;
  private JobManagement client;

  @BeforeEach
  void start() throws Exception {
    // the limits of the single local user (the builder's default); accounts are
    // SecureJobManagementTest's subject
    server =
        GantryTestServer.builder(dir)
            .slots(1)
            .settings(Map.of("limits.queued-jobs-per-user", "2", "limits.kill-grace", "1"))
            .start();
    client = JobManagementClients.of(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static JobDocument sleeper() throws Exception {
    String xml =
        """
        <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
            xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix">
          <jsdl:JobDescription><jsdl:Application><posix:POSIXApplication>
            <posix:Executable>/bin/sleep</posix:Executable><posix:Argument>60</posix:Argument>
          </posix:POSIXApplication></jsdl:Application></jsdl:JobDescription>
        </jsdl:JobDefinition>""";
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Element e =
        f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
    return new JobDocument(e);
  }

  @Test
  void submissionBeyondTheUsersUnfinishedJobLimitIsRefusedUntilOneEnds() throws Exception {
    String first = client.submitJob(sleeper());
    client.submitJob(sleeper());
    LimitExceededFault fault =
        assertThrows(LimitExceededFault.class, () -> client.submitJob(sleeper()));
    assertEquals("LIMIT_EXCEEDED", fault.getFaultInfo().code);
    assertTrue(fault.getMessage().contains("limits.queued-jobs-per-user"), fault.getMessage());
    assertEquals(2, client.listJobs(java.util.List.of(), 0, 10, false).total, "nothing was queued");

    awaitRunning(first);
    client.killJob(first);
    client.submitJob(sleeper()); // room again
  }

  private void awaitRunning(String id) {
    TestJobs.await(
        client, id, Duration.ofSeconds(10), s -> s.state == JobStateName.RUNNING, "RUNNING");
  }
}
