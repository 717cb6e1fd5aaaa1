package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * What any SOAP client sees, checked with raw envelopes as curl would send them: every refusal is a
 * SOAP fault it can parse (a wrong or missing login: HTTP 401 with a challenge), its code says
 * whose mistake it is, its text says what to fix and never carries Java exception text, and the
 * request's bytes are decoded as the request says.
 */
class SoapAnswersTest {
  static final String USER = "carol";
  static final String PASSWORD = "carol-password-1";
  static final String NAME = "Größe-€";

  @TempDir static Path dir;
  static GantryTestServer server;
  static RawHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .secure()
            .account(new TestAccount(USER, PASSWORD, false, null))
            .start();
    http = new RawHttp(server.fingerprint().orElseThrow());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static RawHttp.Answer call(String operation, String body) throws Exception {
    return http.post(
        server.url(),
        "text/xml; charset=utf-8",
        RawHttp.soap11("", operation, body).getBytes(StandardCharsets.UTF_8),
        RawHttp.basic(USER, PASSWORD));
  }

  private static void assertNoJavaText(String text) {
    assertFalse(
        text.contains("Exception") || text.contains("java.") || text.contains("\tat "), text);
  }

  @Test
  void aWrongBasicPasswordGets401WithAChallengeAndASoapFaultNotAPage() throws Exception {
    RawHttp.Answer answer =
        http.post(
            server.url(),
            "text/xml; charset=utf-8",
            RawHttp.soap11("", "getServerInfo", "").getBytes(StandardCharsets.UTF_8),
            RawHttp.basic(USER, "wrong"));
    assertEquals(401, answer.status());
    assertTrue(
        answer.header("WWW-Authenticate").startsWith("Basic realm="),
        answer.header("WWW-Authenticate"));
    assertTrue(answer.header("Content-Type").startsWith("text/xml"), answer.header("Content-Type"));
    assertEquals("soap:Client", answer.faultCode());
    assertEquals("unknown user or wrong password", answer.faultText());
  }

  @Test
  void aMissingLoginGets401WithAChallengeAndASoapFaultInEitherVersion() throws Exception {
    RawHttp.Answer soap11 =
        http.post(
            server.url(),
            "text/xml; charset=utf-8",
            RawHttp.soap11("", "getServerInfo", "").getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertEquals(401, soap11.status());
    assertNotNull(soap11.header("WWW-Authenticate"));
    assertTrue(soap11.faultCode().endsWith("Client"), soap11.faultCode());
    assertTrue(soap11.faultText().contains("authentication required"), soap11.faultText());

    RawHttp.Answer soap12 =
        http.post(
            JobManagementClients.soap12Url(server),
            "application/soap+xml; charset=utf-8",
            RawHttp.soap12("getServerInfo", "").getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertEquals(401, soap12.status());
    assertNotNull(soap12.header("WWW-Authenticate"));
    assertTrue(soap12.faultCode().endsWith("Sender"), soap12.faultCode());
    assertTrue(
        soap12.header("Content-Type").startsWith("application/soap+xml"),
        soap12.header("Content-Type"));
  }

  @Test
  void aWrongBasicPasswordOnTheSoap12EndpointGetsASoap12Fault() throws Exception {
    RawHttp.Answer answer =
        http.post(
            JobManagementClients.soap12Url(server),
            "application/soap+xml; charset=utf-8",
            RawHttp.soap12("getServerInfo", "").getBytes(StandardCharsets.UTF_8),
            RawHttp.basic(USER, "wrong"));
    assertEquals(401, answer.status());
    assertTrue(answer.faultCode().endsWith("Sender"), answer.faultCode());
    assertEquals("unknown user or wrong password", answer.faultText());
  }

  @Test
  void aUsernameTokenWithADigestIsRefusedSayingWhatToSendInstead() throws Exception {
    String envelope =
        RawHttp.soap11(RawHttp.usernameToken(USER, PASSWORD, true), "getServerInfo", "");
    RawHttp.Answer answer =
        http.post(
            server.url(),
            "text/xml; charset=utf-8",
            envelope.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertEquals(401, answer.status());
    assertEquals("PasswordDigest is not accepted: send PasswordText over TLS", answer.faultText());
  }

  @Test
  void aUsernameTokenWithAWrongPasswordSaysSoAndNothingMore() throws Exception {
    String envelope =
        RawHttp.soap11(RawHttp.usernameToken(USER, "wrong", false), "getServerInfo", "");
    RawHttp.Answer answer =
        http.post(
            server.url(),
            "text/xml; charset=utf-8",
            envelope.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertEquals(401, answer.status());
    assertTrue(answer.faultCode().endsWith("Client"), answer.faultCode());
    assertEquals("unknown user or wrong password", answer.faultText());
    // the same answer for a user who does not exist: accounts cannot be probed
    String nobody =
        RawHttp.soap11(RawHttp.usernameToken("nobody", "wrong", false), "getServerInfo", "");
    assertEquals(
        "unknown user or wrong password",
        http.post(
                server.url(),
                "text/xml; charset=utf-8",
                nobody.getBytes(StandardCharsets.UTF_8),
                Map.of())
            .faultText());
  }

  @Test
  void aRightUsernameTokenIsServed() throws Exception {
    String envelope =
        RawHttp.soap11(RawHttp.usernameToken(USER, PASSWORD, false), "getServerInfo", "");
    RawHttp.Answer answer =
        http.post(
            server.url(),
            "text/xml; charset=utf-8",
            envelope.getBytes(StandardCharsets.UTF_8),
            Map.of());
    assertEquals(200, answer.status());
    assertFalse(answer.soap().isFault());
  }

  /**
   * Submits a job named {@link #NAME} with the body in {@code charset}, posted as {@code
   * contentType}.
   */
  private static String submitNamed(
      String contentType, Charset charset, String declaration, String name) throws Exception {
    String job =
        TestJobs.job("x")
            .shell("true", 30)
            .xml()
            .replace("<jsdl:JobName>x</jsdl:JobName>", "<jsdl:JobName>" + name + "</jsdl:JobName>");
    String envelope =
        declaration
            + RawHttp.soap11("", "submitJob", "<g:jobDefinition>" + job + "</g:jobDefinition>");
    RawHttp.Answer answer =
        http.post(
            server.url(), contentType, envelope.getBytes(charset), RawHttp.basic(USER, PASSWORD));
    assertEquals(200, answer.status(), answer.faultText());
    return answer.soap().text("jobId");
  }

  @Test
  void textXmlWithoutACharsetIsDecodedAsItsXmlDeclarationSays() throws Exception {
    String utf8 =
        submitNamed(
            "text/xml", StandardCharsets.UTF_8, "<?xml version='1.0' encoding='UTF-8'?>", NAME);
    assertEquals(NAME, call("getJobStatus", "<g:jobId>" + utf8 + "</g:jobId>").soap().text("name"));
    String undeclared = submitNamed("text/xml", StandardCharsets.UTF_8, "", NAME);
    assertEquals(
        NAME,
        call("getJobStatus", "<g:jobId>" + undeclared + "</g:jobId>").soap().text("name"),
        "UTF-8 by default");
    String latin1 =
        submitNamed(
            "text/xml",
            StandardCharsets.ISO_8859_1,
            "<?xml version='1.0' encoding='ISO-8859-1'?>",
            "Größe");
    assertEquals(
        "Größe", call("getJobStatus", "<g:jobId>" + latin1 + "</g:jobId>").soap().text("name"));
    String declaredInHeader =
        submitNamed("text/xml; charset=ISO-8859-1", StandardCharsets.ISO_8859_1, "", "Größe");
    assertEquals(
        "Größe",
        call("getJobStatus", "<g:jobId>" + declaredInHeader + "</g:jobId>").soap().text("name"));
  }

  @Test
  void argumentsOutOfRangeAreClientFaultsNamingTheArgument() throws Exception {
    Map<String, String[]> cases = new HashMap<>();
    cases.put(
        "limit",
        new String[] {
          "listJobs", "<g:offset>0</g:offset><g:limit>0</g:limit><g:allUsers>false</g:allUsers>"
        });
    cases.put(
        "limit ",
        new String[] {
          "listJobs", "<g:offset>0</g:offset><g:limit>-1</g:limit><g:allUsers>false</g:allUsers>"
        });
    cases.put(
        "limit  ",
        new String[] {
          "listJobs", "<g:offset>0</g:offset><g:limit>1001</g:limit><g:allUsers>false</g:allUsers>"
        });
    cases.put(
        "offset",
        new String[] {
          "listJobs", "<g:offset>-5</g:offset><g:limit>10</g:limit><g:allUsers>false</g:allUsers>"
        });
    String id = "a".repeat(32);
    cases.put(
        "offset ",
        new String[] {
          "getJobOutput",
          "<g:jobId>"
              + id
              + "</g:jobId><g:stream>STDOUT</g:stream><g:offset>-1</g:offset><g:maxBytes>10</g:maxBytes>"
        });
    cases.put(
        "maxBytes",
        new String[] {
          "getJobOutput",
          "<g:jobId>"
              + id
              + "</g:jobId><g:stream>STDOUT</g:stream><g:offset>0</g:offset><g:maxBytes>0</g:maxBytes>"
        });
    cases.put("jobId", new String[] {"getJobStatus", "<g:jobId>../../etc/passwd</g:jobId>"});
    cases.put("jobId ", new String[] {"getJobStatus", ""});
    cases.put("jobId  ", new String[] {"killJob", "<g:jobId>x</g:jobId>"});
    cases.put(
        "jobId   ",
        new String[] {"getJobStatuses", "<g:jobId>" + id + "</g:jobId><g:jobId>bad id</g:jobId>"});
    for (Map.Entry<String, String[]> c : cases.entrySet()) {
      RawHttp.Answer answer = call(c.getValue()[0], c.getValue()[1]);
      String what = c.getValue()[0] + " " + c.getValue()[1];
      assertEquals(500, answer.status(), what);
      assertEquals("soap:Client", answer.faultCode(), what);
      assertTrue(
          answer.faultText().startsWith("argument " + c.getKey().strip() + ":"),
          what + ": " + answer.faultText());
      assertNoJavaText(answer.faultText());
    }
  }

  @Test
  void getJobStatusesAnswersEveryIdAskedInOrderMarkingUnknownOnes() throws Exception {
    String known = submitNamed("text/xml; charset=utf-8", StandardCharsets.UTF_8, "", "statuses");
    String unknown = "b".repeat(32);
    RawHttp.Answer answer =
        call(
            "getJobStatuses", "<g:jobId>" + unknown + "</g:jobId><g:jobId>" + known + "</g:jobId>");
    List<Element> statuses = answer.soap().elements("status");
    assertEquals(2, statuses.size(), new String(answer.response().body(), StandardCharsets.UTF_8));
    assertEquals(unknown, text(statuses.get(0), "jobId"));
    assertEquals("true", text(statuses.get(0), "notFound"));
    assertEquals(known, text(statuses.get(1), "jobId"));
    assertEquals(null, text(statuses.get(1), "notFound"));
    assertEquals(USER, text(statuses.get(1), "owner"));
  }

  private static String text(Element parent, String name) {
    var nodes = parent.getElementsByTagNameNS("*", name);
    return nodes.getLength() == 0 ? null : nodes.item(0).getTextContent();
  }

  @Test
  void anInvalidDocumentIsAClientInvalidJobFaultWithTheWholeReport() throws Exception {
    String job =
        "<jsdl:JobDefinition xmlns:jsdl='"
            + TestJobs.JSDL
            + "'><jsdl:JobDescription><jsdl:Bogus/>"
            + "</jsdl:JobDescription></jsdl:JobDefinition>";
    RawHttp.Answer answer = call("submitJob", "<g:jobDefinition>" + job + "</g:jobDefinition>");
    assertEquals("soap:Client", answer.faultCode());
    assertFalse(
        answer.soap().elements("InvalidJob").isEmpty(), "the detail is the InvalidJob report");
    assertTrue(
        answer.soap().elements("problem").stream()
            .anyMatch(p -> p.getTextContent().contains("Bogus")));
    assertNoJavaText(answer.faultText());
  }

  @Test
  void noAnswerCarriesJavaExceptionTextWhateverTheDocument() throws Exception {
    // once made the planner throw a NullPointerException whose text reached the client
    String noExecutable =
        "<jsdl:JobDefinition xmlns:jsdl='"
            + TestJobs.JSDL
            + "' xmlns:posix='"
            + TestJobs.POSIX
            + "'><jsdl:JobDescription><jsdl:Application><posix:POSIXApplication/></jsdl:Application>"
            + "</jsdl:JobDescription></jsdl:JobDefinition>";
    for (String operation : List.of("validateJob", "submitJob")) {
      RawHttp.Answer answer =
          call(operation, "<g:jobDefinition>" + noExecutable + "</g:jobDefinition>");
      String all = new String(answer.response().body(), StandardCharsets.UTF_8);
      assertNoJavaText(all);
      if (answer.soap().isFault() && answer.faultCode().endsWith("Server")) {
        assertTrue(
            answer.faultText().matches("internal server error \\(incident [0-9a-f-]{36}\\).*"),
            answer.faultText());
      }
    }
  }

  @Test
  void theSoap12BindingServesTheSameServiceWithSenderFaults() throws Exception {
    RawHttp.Answer info =
        http.post(
            JobManagementClients.soap12Url(server),
            "application/soap+xml; charset=utf-8",
            RawHttp.soap12("getServerInfo", "").getBytes(StandardCharsets.UTF_8),
            RawHttp.basic(USER, PASSWORD));
    assertEquals(200, info.status());
    assertFalse(info.soap().isFault());
    RawHttp.Answer fault =
        http.post(
            JobManagementClients.soap12Url(server),
            "application/soap+xml; charset=utf-8",
            RawHttp.soap12(
                    "listJobs",
                    "<g:offset>0</g:offset><g:limit>0</g:limit><g:allUsers>false</g:allUsers>")
                .getBytes(StandardCharsets.UTF_8),
            RawHttp.basic(USER, PASSWORD));
    assertTrue(fault.faultCode().endsWith("Sender"), fault.faultCode());
    assertTrue(fault.faultText().startsWith("argument limit:"), fault.faultText());
  }

  @Test
  void theJavaClientStillWorksAndSeesTheNewNotFoundMark() throws Exception {
    var client = JobManagementClients.of(server, new Login.Basic(USER, PASSWORD));
    String id = client.submitJob(TestJobs.job("cxf").shell("true", 30).document());
    JobStatusInfo done = TestJobs.awaitFinal(client, id, Duration.ofSeconds(60));
    assertEquals(JobStateName.SUCCEEDED, done.state, done.failureReason);
    List<JobStatusInfo> statuses = client.getJobStatuses(List.of(id, "c".repeat(32)));
    assertEquals(2, statuses.size());
    assertEquals(true, statuses.get(1).notFound);
  }
}
