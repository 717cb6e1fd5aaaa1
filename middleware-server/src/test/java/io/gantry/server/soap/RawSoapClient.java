package io.gantry.server.soap;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A SOAP 1.1 client with no SOAP stack: envelopes written as text, posted with {@link HttpClient},
 * answers read with a DOM parser that refuses DOCTYPEs and external entities. It stands for curl,
 * zeep or a BPEL engine: if this works, the service does not depend on CXF being on the other side.
 */
public final class RawSoapClient {
  public static final String SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
  public static final String API = "urn:gantry:jobmanagement:1";

  private final URI endpoint;
  private final HttpClient http =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .proxy(HttpClient.Builder.NO_PROXY)
          .build();

  RawSoapClient(String url) {
    this.endpoint = URI.create(url);
  }

  /** An HTTP answer: its status code and its parsed envelope. */
  public record Answer(int status, Document envelope) {
    public boolean isFault() {
      return !elements("Fault").isEmpty();
    }

    /** Every element with this local name, in document order, in any namespace. */
    public List<Element> elements(String localName) {
      NodeList nodes = envelope.getElementsByTagNameNS("*", localName);
      List<Element> result = new ArrayList<>();
      for (int i = 0; i < nodes.getLength(); i++) {
        result.add((Element) nodes.item(i));
      }
      return result;
    }

    /** Text of the first element with this local name; null if there is none. */
    public String text(String localName) {
      List<Element> found = elements(localName);
      return found.isEmpty() ? null : found.get(0).getTextContent();
    }
  }

  /** Calls {@code operation} with {@code body} (the wrapper's children, as XML text). */
  public Answer call(String operation, String body) throws Exception {
    String envelope =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<soapenv:Envelope xmlns:soapenv=\""
            + SOAP_ENV
            + "\" xmlns:g=\""
            + API
            + "\">"
            + "<soapenv:Header/><soapenv:Body><g:"
            + operation
            + ">"
            + body
            + "</g:"
            + operation
            + ">"
            + "</soapenv:Body></soapenv:Envelope>";
    return post(envelope);
  }

  /** Posts a whole envelope as written. */
  public Answer post(String envelope) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(endpoint)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "text/xml; charset=utf-8")
            .header("SOAPAction", "\"\"")
            .POST(HttpRequest.BodyPublishers.ofString(envelope, StandardCharsets.UTF_8))
            .build();
    HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), parse(response.body()));
  }

  /** GETs a document from the endpoint, e.g. {@code ?wsdl}. */
  public String get(String query) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(endpoint + query))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("GET " + query + " answered " + response.statusCode());
    }
    return response.body();
  }

  public static Document parse(byte[] xml) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    f.setFeature("http://xml.org/sax/features/external-general-entities", false);
    f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    f.setXIncludeAware(false);
    f.setExpandEntityReferences(false);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
  }
}
