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
 * The WSDL in the form it is checked in: the served document with the endpoint address (which
 * names the port the server happened to get) replaced by a fixed one, whitespace between
 * elements dropped, then indented. Anything else that differs is a change of the contract.
 */
final class WsdlContract {
  static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
  static final String SOAP_BINDING_NS = "http://schemas.xmlsoap.org/wsdl/soap/";
  static final String PLACEHOLDER_ADDRESS = "http://localhost:8080/services/JobManagement";

  private WsdlContract() {}

  static String normalised(String servedWsdl) throws Exception {
    Document wsdl = RawSoapClient.parse(servedWsdl.getBytes(StandardCharsets.UTF_8));
    NodeList addresses = wsdl.getElementsByTagNameNS(SOAP_BINDING_NS, "address");
    for (int i = 0; i < addresses.getLength(); i++) {
      ((Element) addresses.item(i)).setAttribute("location", PLACEHOLDER_ADDRESS);
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
