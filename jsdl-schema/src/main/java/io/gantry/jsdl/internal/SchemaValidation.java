package io.gantry.jsdl.internal;

import io.gantry.jsdl.JsdlNamespaces;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.validation.ValidatorHandler;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.AttributesImpl;

/**
 * Second pass: validates the located DOM against the schemas by replaying it as SAX events into a
 * ValidatorHandler. Replaying the DOM (rather than validating while reading) means the element each
 * error belongs to is known, with its full path and its start-tag position.
 */
final class SchemaValidation implements ErrorHandler, Locator {
  private static final String XMLNS = "http://www.w3.org/2000/xmlns/";

  private final List<SchemaError> errors = new ArrayList<>();
  private Element current;

  /** A schema error and the element it was raised on. */
  record SchemaError(Element element, String message) {}

  static List<SchemaError> validate(Document document) {
    SchemaValidation validation = new SchemaValidation();
    ValidatorHandler handler = JsdlSchemas.schema().newValidatorHandler();
    try {
      handler.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      handler.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      handler.setErrorHandler(validation);
      handler.setDocumentLocator(validation);
      handler.startDocument();
      validation.replay(handler, document.getDocumentElement(), false);
      handler.endDocument();
    } catch (SAXException e) {
      validation.errors.add(new SchemaError(validation.current, e.getMessage()));
    }
    return validation.errors;
  }

  /**
   * Inside an element of a namespace Gantry does not know, xsi:type (and xsi:nil) attributes are
   * left out: the lax wildcard would otherwise try to resolve a type from a schema Gantry has not
   * got and fail the whole document, where a foreign extension is only a warning.
   */
  private void replay(ValidatorHandler handler, Element element, boolean inForeign)
      throws SAXException {
    boolean foreign = inForeign || !JsdlNamespaces.isKnown(element.getNamespaceURI());
    AttributesImpl attributes = new AttributesImpl();
    List<String> prefixes = new ArrayList<>();
    NamedNodeMap map = element.getAttributes();
    for (int i = 0; i < map.getLength(); i++) {
      Attr a = (Attr) map.item(i);
      if (XMLNS.equals(a.getNamespaceURI())) {
        String prefix = "xmlns".equals(a.getName()) ? "" : a.getLocalName();
        handler.startPrefixMapping(prefix, a.getValue());
        prefixes.add(prefix);
      } else if (!(foreign
          && XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI.equals(a.getNamespaceURI()))) {
        String local = a.getLocalName() == null ? a.getName() : a.getLocalName();
        attributes.addAttribute(
            nonNull(a.getNamespaceURI()), local, a.getName(), "CDATA", a.getValue());
      }
    }
    current = element;
    handler.startElement(
        nonNull(element.getNamespaceURI()),
        element.getLocalName(),
        element.getTagName(),
        attributes);
    for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element child) {
        replay(handler, child, foreign);
      } else if (n.getNodeType() == Node.TEXT_NODE) {
        current = element;
        char[] text = n.getNodeValue().toCharArray();
        handler.characters(text, 0, text.length);
      }
    }
    current = element;
    handler.endElement(
        nonNull(element.getNamespaceURI()), element.getLocalName(), element.getTagName());
    for (String prefix : prefixes) {
      handler.endPrefixMapping(prefix);
    }
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }

  @Override
  public void warning(SAXParseException e) {}

  @Override
  public void error(SAXParseException e) {
    errors.add(new SchemaError(current, e.getMessage()));
  }

  @Override
  public void fatalError(SAXParseException e) {
    errors.add(new SchemaError(current, e.getMessage()));
  }

  @Override
  public String getPublicId() {
    return null;
  }

  @Override
  public String getSystemId() {
    return null;
  }

  @Override
  public int getLineNumber() {
    return SourcePosition.of(current).line();
  }

  @Override
  public int getColumnNumber() {
    return SourcePosition.of(current).column();
  }
}
