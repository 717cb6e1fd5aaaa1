package io.gantry.jsdl.internal;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.TransformerFactory;
import org.xml.sax.SAXException;

/**
 * XML factories set up for untrusted job descriptions: no DOCTYPE at all (so no external
 * entities, no entity expansion), nothing fetched from outside, JAXP secure processing on.
 * A job description never needs a DTD; refusing the DOCTYPE outright is simpler and safer
 * than trying to neutralise what it declares.
 */
public final class HardenedXml {
  private HardenedXml() {}

  public static SAXParserFactory saxParserFactory() {
    try {
      SAXParserFactory factory = SAXParserFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setValidating(false);
      factory.setXIncludeAware(false);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      return factory;
    } catch (ParserConfigurationException | SAXException e) {
      throw new IllegalStateException("the XML parser cannot be hardened: " + e.getMessage(), e);
    }
  }

  /** For building documents in memory only; nothing is parsed with it. */
  public static DocumentBuilderFactory documentBuilderFactory() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setExpandEntityReferences(false);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      return factory;
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the DOM builder cannot be hardened: " + e.getMessage(), e);
    }
  }

  /** For serialising a DOM element handed to us (SOAP); refuses external stylesheets and DTDs. */
  public static TransformerFactory transformerFactory() {
    TransformerFactory factory = TransformerFactory.newInstance();
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
    return factory;
  }
}
