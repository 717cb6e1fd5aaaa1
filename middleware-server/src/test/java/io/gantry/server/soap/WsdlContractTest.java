package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.soap.SoapContract;
import io.gantry.testing.server.GantryTestServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The WSDL is a checked-in contract: clients (BPEL engines, zeep, generated stubs) are built
 * against it, so a change to the API classes that changes the served WSDL must be deliberate.
 */
class WsdlContractTest {
  /** Where the contract's source lives (soap-contract); the test runs in the module's directory. */
  static final Path CHECKED_IN =
      Path.of("../soap-contract/src/main/resources", SoapContract.WSDL_RESOURCE);

  /**
   * The operations of the service interface (counted, not written down, so that features adding
   * operations side by side do not edit the same number).
   */
  static final int OPERATIONS = io.gantry.server.api.JobManagement.class.getMethods().length;

  /** Set to true to rewrite the checked-in file from the served WSDL. */
  static final String UPDATE_PROPERTY = "gantry.wsdl.update";

  @TempDir static Path dataDir;
  static GantryTestServer server;
  static String served;
  static String servedSoap12;

  @BeforeAll
  static void start() throws Exception {
    server = GantryTestServer.builder(dataDir).start();
    served = new RawSoapClient(server.url()).get("?wsdl");
    servedSoap12 = new RawSoapClient(JobManagementClients.soap12Url(server)).get("?wsdl");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void servedWsdlIsTheCheckedInContract() throws Exception {
    String normalised = WsdlContract.normalised(served, servedSoap12);
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      Files.writeString(CHECKED_IN, normalised, StandardCharsets.UTF_8);
      return; // the class path still holds the old copy until soap-contract is built again
    }
    // the contract as the server's dependency ships it, as clients are generated from it
    String contract;
    try (InputStream in = SoapContract.wsdl().openStream()) {
      contract = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(
        contract,
        normalised,
        "the served WSDL differs from the checked-in contract " + CHECKED_IN + howToUpdate());
  }

  private static String howToUpdate() {
    return ". If the API change is deliberate (and its namespace version is right for it), rewrite"
        + " the file with: mvn -B -o -pl middleware-server -am test -Dtest=WsdlContractTest"
        + " -Dsurefire.failIfNoSpecifiedTests=false -D"
        + UPDATE_PROPERTY
        + "=true ; then review"
        + " and commit the diff";
  }

  @Test
  void everyOperationIsDocumentLiteralWrappedAsWsiBasicProfileAsks() throws Exception {
    Document wsdl = RawSoapClient.parse(served.getBytes(StandardCharsets.UTF_8));
    List<Element> messages = all(wsdl, WsdlContract.WSDL_NS, "message");
    assertFalse(messages.isEmpty());
    for (Element message : messages) {
      List<Element> parts = children(message, "part");
      assertEquals(1, parts.size(), "message " + message.getAttribute("name") + " has one part");
      Element part = parts.get(0);
      assertTrue(
          part.hasAttribute("element") && !part.hasAttribute("type"),
          "message " + message.getAttribute("name") + " refers to an element, not a type");
      boolean fault = message.getAttribute("name").endsWith("Fault");
      if (!fault) {
        assertEquals(
            "parameters",
            part.getAttribute("name"),
            "message " + message.getAttribute("name") + "'s part is named parameters");
      }
    }
    for (Element binding : all(wsdl, WsdlContract.SOAP_BINDING_NS, "binding")) {
      assertEquals("document", binding.getAttribute("style"));
      assertEquals("http://schemas.xmlsoap.org/soap/http", binding.getAttribute("transport"));
    }
    List<Element> operations = all(wsdl, WsdlContract.SOAP_BINDING_NS, "operation");
    assertEquals(
        operationsOfTheInterface(),
        operations.size(),
        "every operation of the JobManagement interface is bound");
    for (Element op : operations) {
      assertTrue(op.getAttribute("style").isEmpty() || op.getAttribute("style").equals("document"));
    }
    List<Element> bodies = all(wsdl, WsdlContract.SOAP_BINDING_NS, "body");
    bodies.addAll(all(wsdl, WsdlContract.SOAP_BINDING_NS, "fault"));
    assertFalse(bodies.isEmpty());
    for (Element body : bodies) {
      assertEquals("literal", body.getAttribute("use"));
    }
    // wrapped: each input message's element is named after its operation
    for (Element op : children(first(wsdl, WsdlContract.WSDL_NS, "portType"), "operation")) {
      String input = children(op, "input").get(0).getAttribute("message");
      assertEquals(op.getAttribute("name"), input.substring(input.indexOf(':') + 1));
    }
  }

  @Test
  void theSoap12EndpointServesTheSamePortTypeBoundToSoap12() throws Exception {
    Document wsdl = RawSoapClient.parse(servedSoap12.getBytes(StandardCharsets.UTF_8));
    Element binding = first(wsdl, WsdlContract.WSDL_NS, "binding");
    assertEquals("tns:JobManagement", binding.getAttribute("type"));
    assertEquals(
        operationsOfTheInterface(), all(wsdl, WsdlContract.SOAP12_BINDING_NS, "operation").size());
    assertEquals(
        "JobManagementSoap12Port", first(wsdl, WsdlContract.WSDL_NS, "port").getAttribute("name"));
    assertEquals(
        JobManagementClients.soap12Url(server),
        first(wsdl, WsdlContract.SOAP12_BINDING_NS, "address").getAttribute("location"));
  }

  @Test
  void targetNamespaceIsTheVersionedApiNamespace() throws Exception {
    Document wsdl = RawSoapClient.parse(served.getBytes(StandardCharsets.UTF_8));
    assertEquals(RawSoapClient.API, wsdl.getDocumentElement().getAttribute("targetNamespace"));
  }

  private static Element first(Document doc, String ns, String name) {
    return all(doc, ns, name).get(0);
  }

  private static List<Element> all(Document doc, String ns, String name) {
    NodeList nodes = doc.getElementsByTagNameNS(ns, name);
    List<Element> result = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      result.add((Element) nodes.item(i));
    }
    return result;
  }

  private static List<Element> children(Element parent, String localName) {
    List<Element> result = new ArrayList<>();
    for (var n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && localName.equals(e.getLocalName())) {
        result.add(e);
      }
    }
    return result;
  }

  /** The operations the server implements: one per method of the service endpoint interface. */
  private static int operationsOfTheInterface() {
    return io.gantry.server.api.JobManagement.class.getDeclaredMethods().length;
  }
}
