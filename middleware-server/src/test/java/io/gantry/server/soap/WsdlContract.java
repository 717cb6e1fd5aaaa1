package io.gantry.server.soap;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The WSDL in the form it is checked in: the served document with the endpoint address (which names
 * the port the server happened to get) replaced by a fixed one, whitespace between elements
 * dropped, then indented. Anything else that differs is a change of the contract.
 */
final class WsdlContract {
  static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
  static final String SOAP_BINDING_NS = "http://schemas.xmlsoap.org/wsdl/soap/";
  static final String SOAP12_BINDING_NS = "http://schemas.xmlsoap.org/wsdl/soap12/";
  static final String PLACEHOLDER_ADDRESS = "http://localhost:8080/services/JobManagement";
  static final String PLACEHOLDER_ADDRESS_12 =
      "http://localhost:8080/services/soap12/JobManagement";

  private WsdlContract() {}

  /**
   * The contract of both bindings in one document: the SOAP 1.1 endpoint's WSDL with the SOAP 1.2
   * endpoint's binding and port added (its types, messages and port type are the same service's,
   * generated from the same classes).
   */
  static String normalised(String servedWsdl, String servedSoap12Wsdl) throws Exception {
    Document wsdl = RawSoapClient.parse(servedWsdl.getBytes(StandardCharsets.UTF_8));
    Document soap12 = RawSoapClient.parse(servedSoap12Wsdl.getBytes(StandardCharsets.UTF_8));
    wsdl.getDocumentElement()
        .setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:soap12", SOAP12_BINDING_NS);
    Element binding11 = (Element) wsdl.getElementsByTagNameNS(WSDL_NS, "binding").item(0);
    Element binding12 = (Element) soap12.getElementsByTagNameNS(WSDL_NS, "binding").item(0);
    binding11
        .getParentNode()
        .insertBefore(wsdl.importNode(binding12, true), binding11.getNextSibling());
    Element service = (Element) wsdl.getElementsByTagNameNS(WSDL_NS, "service").item(0);
    service.appendChild(
        wsdl.importNode(soap12.getElementsByTagNameNS(WSDL_NS, "port").item(0), true));
    return normalised(wsdl);
  }

  static String normalised(String servedWsdl) throws Exception {
    return normalised(RawSoapClient.parse(servedWsdl.getBytes(StandardCharsets.UTF_8)));
  }

  private static String normalised(Document wsdl) throws Exception {
    NodeList addresses = wsdl.getElementsByTagNameNS(SOAP_BINDING_NS, "address");
    for (int i = 0; i < addresses.getLength(); i++) {
      ((Element) addresses.item(i)).setAttribute("location", PLACEHOLDER_ADDRESS);
    }
    NodeList addresses12 = wsdl.getElementsByTagNameNS(SOAP12_BINDING_NS, "address");
    for (int i = 0; i < addresses12.getLength(); i++) {
      ((Element) addresses12.item(i)).setAttribute("location", PLACEHOLDER_ADDRESS_12);
    }
    dropBlankText(wsdl.getDocumentElement());
    TransformerFactory factory = TransformerFactory.newInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    Transformer out = factory.newTransformer();
    out.setOutputProperty(OutputKeys.INDENT, "yes");
    out.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
    out.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
    StringWriter text = new StringWriter();
    out.transform(new DOMSource(wsdl), new StreamResult(text));
    return text.toString().replace("\r\n", "\n").strip() + "\n";
  }

  private static void dropBlankText(Node node) {
    Node child = node.getFirstChild();
    while (child != null) {
      Node next = child.getNextSibling();
      if (child.getNodeType() == Node.TEXT_NODE && child.getTextContent().isBlank()) {
        node.removeChild(child);
      } else if (child.getNodeType() == Node.ELEMENT_NODE) {
        dropBlankText(child);
      }
      child = next;
    }
  }
}
