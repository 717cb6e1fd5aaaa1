package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.soap.RawSoapClient.Answer;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * The service as any SOAP stack sees it: hand-written envelopes over plain HTTP, no CXF on the
 * client side. Element names, namespaces and fault shapes checked here are what curl users, zeep
 * and BPEL engines depend on.
 */
class RawSoapEnvelopeTest {
  @TempDir static Path dir;
  static GantryTestServer server;
  static RawSoapClient soap;

  @BeforeAll
  static void start() throws Exception {
    server = GantryTestServer.builder(dir).start();
    soap = new RawSoapClient(server.url());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aJobSubmittedAsARawEnvelopeRunsAndItsOutputComesBackAsBase64() throws Exception {
    String jsdl = TestJobs.job("raw").posix(60, "/bin/echo", "hello from a raw envelope").xml();
    Answer submitted = soap.call("submitJob", "<g:jobDefinition>" + jsdl + "</g:jobDefinition>");
    assertEquals(200, submitted.status());
    assertFalse(submitted.isFault());
    Element response = submitted.elements("submitJobResponse").get(0);
    assertEquals(RawSoapClient.API, response.getNamespaceURI());
    String id = submitted.text("jobId");
    assertTrue(id.matches("[A-Za-z0-9_-]{32}"), id);

    Answer status = awaitState(id, "SUCCEEDED");
    assertEquals("raw", status.text("name"));
    assertEquals("0", status.text("exitCode"));

    Answer output =
        soap.call(
            "getJobOutput",
            "<g:jobId>"
                + id
                + "</g:jobId><g:stream>STDOUT</g:stream>"
                + "<g:offset>0</g:offset><g:maxBytes>65536</g:maxBytes>");
    assertEquals(
        "hello from a raw envelope\n",
        new String(
            Base64.getDecoder().decode(output.text("data").strip()), StandardCharsets.UTF_8));
    assertEquals("true", output.text("complete"));
  }

  private Answer awaitState(String id, String state) {
    return Await.value(
        "job " + id + " to reach " + state,
        Duration.ofSeconds(30),
        () -> {
          Answer status = soap.call("getJobStatus", "<g:jobId>" + id + "</g:jobId>");
          assertEquals(200, status.status());
          return status;
        },
        status -> state.equals(status.text("state")),
        status -> status.text("state"));
  }

  @Test
  void anInvalidJobIsASoapFaultCarryingTheValidationReportAndNothingIsQueued() throws Exception {
    String total =
        soap.call(
                "listJobs",
                "<g:offset>0</g:offset><g:limit>1</g:limit>" + "<g:allUsers>false</g:allUsers>")
            .text("total");
    String jsdl =
        "<jsdl:JobDefinition xmlns:jsdl=\""
            + TestJobs.JSDL
            + "\" xmlns:gx=\""
            + TestJobs.GANTRY
            + "\">\n<jsdl:JobDescription>\n<jsdl:Application>\n<gx:MpirunApplication>\n"
            + "<gx:Executable>/bin/true</gx:Executable>\n<gx:NumberOfProcesses>-1</gx:NumberOfProcesses>\n"
            + "<gx:Colour>blue</gx:Colour>\n</gx:MpirunApplication>\n</jsdl:Application>\n"
            + "</jsdl:JobDescription>\n</jsdl:JobDefinition>";
    Answer answer = soap.call("submitJob", "<g:jobDefinition>" + jsdl + "</g:jobDefinition>");
    assertEquals(500, answer.status(), "SOAP 1.1 over HTTP: a fault is status 500");
    assertTrue(answer.isFault());
    assertFalse(answer.text("faultstring").isBlank());
    assertTrue(
        answer.text("faultcode").endsWith(":Client"),
        "the caller's to fix: " + answer.text("faultcode"));
    Element detail = answer.elements("InvalidJob").get(0);
    assertEquals(RawSoapClient.API, detail.getNamespaceURI());
    assertEquals("false", answer.text("valid"));
    assertFalse(answer.elements("problem").isEmpty());
    for (Element problem : answer.elements("problem")) {
      assertNotNull(problem.getElementsByTagNameNS(RawSoapClient.API, "line").item(0));
      assertFalse(
          problem
              .getElementsByTagNameNS(RawSoapClient.API, "message")
              .item(0)
              .getTextContent()
              .isBlank());
    }
    assertEquals(
        total,
        soap.call(
                "listJobs",
                "<g:offset>0</g:offset><g:limit>1</g:limit>" + "<g:allUsers>false</g:allUsers>")
            .text("total"),
        "nothing was queued");
  }

  @Test
  void anUnknownJobIsAJobNotFoundFaultWithItsCode() throws Exception {
    Answer answer =
        soap.call("getJobStatus", "<g:jobId>abcdefghijklmnopqrstuvwxyz234567</g:jobId>");
    assertEquals(500, answer.status());
    assertTrue(answer.isFault());
    assertEquals(RawSoapClient.API, answer.elements("JobNotFound").get(0).getNamespaceURI());
    assertEquals("JOB_NOT_FOUND", answer.text("code"));
    assertTrue(answer.text("faultcode").endsWith(":Client"), answer.text("faultcode"));
  }

  @Test
  void serverInfoAnswersAnEmptyRequest() throws Exception {
    Answer answer = soap.call("getServerInfo", "");
    assertEquals(200, answer.status());
    assertEquals(RawSoapClient.API, answer.text("apiNamespace"));
    assertNotNull(answer.text("totalSlots"));
  }

  /**
   * Found by SoapRequestFuzzTest: CXF's XML reader refuses a broken XML declaration before any SOAP
   * is read, and the client was told "internal server error" (and the log got a stack trace).
   */
  @Test
  void aRequestThatIsNotWellFormedXmlIsTheCallersFaultSayingWhere() throws Exception {
    Answer answer =
        soap.post(
            "<?xml version=\"1.0_\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\""
                + RawSoapClient.SOAP_ENV
                + "\"><soapenv:Body/></soapenv:Envelope>");
    assertEquals(500, answer.status());
    assertTrue(answer.text("faultcode").endsWith(":Client"), answer.text("faultcode"));
    String said = answer.text("faultstring");
    assertTrue(said.startsWith("the request is not well-formed XML (line 1, column "), said);
    assertTrue(said.contains("'1.0_'"), said);
    assertFalse(said.contains("incident"), said);
  }

  /** Found by SoapRequestFuzzTest: CXF read past the end of an envelope without a Body. */
  @Test
  void anEnvelopeWithoutABodyIsTheCallersFault() throws Exception {
    Answer answer =
        soap.post(
            "<soapenv:Envelope xmlns:soapenv=\""
                + RawSoapClient.SOAP_ENV
                + "\"><soapenv:Bodu/></soapenv:Envelope>");
    assertEquals(500, answer.status());
    assertTrue(answer.text("faultcode").endsWith(":Client"), answer.text("faultcode"));
    assertEquals("the request's SOAP envelope has no Body", answer.text("faultstring"));
  }

  @Test
  void aDoctypeInTheRequestIsRefused() throws Exception {
    Answer answer =
        soap.post(
            "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                + "<soapenv:Envelope xmlns:soapenv=\""
                + RawSoapClient.SOAP_ENV
                + "\" xmlns:g=\""
                + RawSoapClient.API
                + "\"><soapenv:Body><g:getJobStatus><g:jobId>&e;</g:jobId>"
                + "</g:getJobStatus></soapenv:Body></soapenv:Envelope>");
    assertTrue(answer.isFault());
    assertFalse(
        answer.envelope().getDocumentElement().getTextContent().contains("root:"),
        "no file content in the answer");
  }
}
