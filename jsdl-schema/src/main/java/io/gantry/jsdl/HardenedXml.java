package io.gantry.jsdl;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.TransformerFactory;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * XML factories set up for untrusted job descriptions: no DOCTYPE at all (so no external entities,
 * no entity expansion), nothing fetched from outside, JAXP secure processing on. A job description
 * never needs a DTD; refusing the DOCTYPE outright is simpler and safer than trying to neutralise
 * what it declares.
 *
 * <p>Public so that every module that reads a job description as XML (the server's redaction, the
 * wizard's import, the command line's SOAP payload) reads it with this one set-up, rather than each
 * repeating the feature list and one day forgetting a line of it.
 */
public final class HardenedXml {
  // The JDK's own implementations (newDefaultInstance), not newInstance: newInstance searches
  // every jar of the classpath for a META-INF/services entry on each call, which made creating
  // the factories a fifth of parsing a job description in a server (JFR, ZipFile lookups); the
  // search found the JDK's implementation anyway, as no other is on the classpath.
  private HardenedXml() {}

  public static SAXParserFactory saxParserFactory() {
    try {
      SAXParserFactory factory = SAXParserFactory.newDefaultInstance();
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

  /** Namespace-aware, DOCTYPE refused, nothing external: for parsing and for building documents. */
  public static DocumentBuilderFactory documentBuilderFactory() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
      factory.setNamespaceAware(true);
      factory.setXIncludeAware(false);
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

  /** A builder from {@link #documentBuilderFactory()}. */
  public static DocumentBuilder documentBuilder() {
    try {
      return documentBuilderFactory().newDocumentBuilder();
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("the DOM builder cannot be hardened: " + e.getMessage(), e);
    }
  }

  /**
   * A builder per thread for {@link #newDocument}: making one costs more than building a small
   * document (the factory's set-up), and a builder is not safe to share between threads.
   */
  private static final ThreadLocal<DocumentBuilder> DOCUMENTS =
      ThreadLocal.withInitial(HardenedXml::documentBuilder);

  /** An empty document to build in memory. */
  public static Document newDocument() {
    return DOCUMENTS.get().newDocument();
  }

  /** Parses untrusted XML; a DOCTYPE is refused with a SAXException naming it. */
  public static Document parse(InputStream xml) throws SAXException, IOException {
    return documentBuilder().parse(xml);
  }

  /** Parses untrusted XML text; a DOCTYPE is refused with a SAXException naming it. */
  public static Document parse(String xml) throws SAXException, IOException {
    return documentBuilder().parse(new InputSource(new StringReader(xml)));
  }

  /** For serialising a DOM element handed to us (SOAP); refuses external stylesheets and DTDs. */
  public static TransformerFactory transformerFactory() {
    TransformerFactory factory = TransformerFactory.newDefaultInstance();
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
    return factory;
  }
}
