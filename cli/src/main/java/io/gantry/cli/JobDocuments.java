package io.gantry.cli;

import io.gantry.jsdl.HardenedXml;
import io.gantry.soap.SoapContract;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/**
 * Job descriptions as the SOAP message carries them: the {@code JobDefinition} element itself.
 * Parsed with DOCTYPEs refused, as the server parses them, so a document that passed the offline
 * check cannot pull in an external entity on its way.
 */
final class JobDocuments {
  private JobDocuments() {}

  static Element element(byte[] xml) {
    try {
      return HardenedXml.parse(new ByteArrayInputStream(xml)).getDocumentElement();
    } catch (SAXException | IOException e) {
      // the offline parser accepted it, so only a parser difference gets here
      throw new CommandFailure(
          ExitCodes.NEGATIVE, "cannot read the job description as XML: " + e.getMessage(), e);
    }
  }

  /**
   * Drops declarations of the SOAP API's namespace that the element inherited from the message
   * around it: no JSDL document uses that namespace, and a copy saved for resubmission should look
   * like what the user wrote.
   */
  static Element withoutApiNamespace(Element element) {
    var attributes = element.getAttributes();
    for (int i = attributes.getLength() - 1; i >= 0; i--) {
      var attribute = attributes.item(i);
      if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(attribute.getNamespaceURI())
          && SoapContract.API_NAMESPACE.equals(attribute.getNodeValue())) {
        element.removeAttributeNode((org.w3c.dom.Attr) attribute);
      }
    }
    return element;
  }

  static String text(Element element) {
    try {
      var transformer = HardenedXml.transformerFactory().newTransformer();
      transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      StringWriter text = new StringWriter();
      transformer.transform(new DOMSource(element), new StreamResult(text));
      return text.toString();
    } catch (TransformerException e) {
      throw new IllegalStateException("cannot write the job description: " + e.getMessage(), e);
    }
  }
}
