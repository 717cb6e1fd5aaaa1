package io.gantry.jsdl.internal;

import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JsdlNamespaces;
import io.gantry.jsdl.ValidationReport;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import org.w3c.dom.DOMException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.ext.Locator2;
import org.xml.sax.helpers.DefaultHandler;

/**
 * First pass over a job description: reads the bytes with a hardened SAX parser into a DOM whose
 * elements remember where their start tags begin.
 *
 * <ol>
 *   <li>A DOCTYPE stops the parse at once (no DTD, no entities, no local file read).
 *   <li>Nesting deeper than the limit stops the parse at the offending start tag.
 *   <li>The 2005/04 draft JSDL namespace is renamed to the 2005/11 one, with a warning; the ogf.org
 *       spelling of the HPC Profile Application namespace to the ggf.org one (both are in use by
 *       conforming clients, so silently).
 * </ol>
 */
public final class LocatedDomReader extends DefaultHandler {
  private final byte[] bytes;
  private final int maxDepth;
  private final ValidationReport report;
  private final Document document;
  private final Deque<Node> open = new ArrayDeque<>();
  private final StringBuilder pendingNamespaces = new StringBuilder();
  private Locator locator;
  private SourceText sourceText;
  private boolean draftNamespaceSeen;

  private LocatedDomReader(byte[] bytes, int maxDepth, ValidationReport report) {
    this.bytes = bytes;
    this.maxDepth = maxDepth;
    this.report = report;
    this.document = HardenedXml.newDocument();
    open.push(document);
  }

  /**
   * A parser per thread: JAXP factories and parsers are not guaranteed to be thread-safe, and
   * making a factory and a parser for each document cost more than reading a job description.
   */
  private static final ThreadLocal<SAXParser> PARSERS =
      ThreadLocal.withInitial(
          () -> {
            try {
              return HardenedXml.saxParserFactory().newSAXParser();
            } catch (ParserConfigurationException | SAXException e) {
              throw new IllegalStateException("the XML parser cannot be made: " + e, e);
            }
          });

  /** The document, or null when it is refused or not well-formed (the report says why). */
  public static Document read(byte[] bytes, int maxDepth, ValidationReport report) {
    LocatedDomReader reader = new LocatedDomReader(bytes, maxDepth, report);
    try {
      SAXParser parser = PARSERS.get();
      parser.reset(); // as the factory made it: a parse that failed leaves nothing behind
      parser
          .getXMLReader()
          .setEntityResolver(
              (publicId, systemId) -> {
                throw new SAXException("external entities are not allowed: " + systemId);
              });
      parser.parse(new InputSource(new ByteArrayInputStream(bytes)), reader);
    } catch (TooDeep e) {
      report.error(
          e.line,
          e.column,
          "",
          "elements are nested deeper than "
              + maxDepth
              + " levels; a job description needs far fewer, so the document is refused");
      return null;
    } catch (BadName e) {
      report.error(e.line, e.column, "", e.getMessage());
      return null;
    } catch (SAXParseException e) {
      report.error(e.getLineNumber(), e.getColumnNumber(), "", ParseMessages.wellFormedness(e));
      return null;
    } catch (SAXException | IOException e) {
      report.error(0, 0, "", "the document cannot be read as XML: " + e.getMessage());
      return null;
    }
    reader.warnAboutDraftNamespace();
    return reader.document;
  }

  @Override
  public void setDocumentLocator(Locator locator) {
    this.locator = locator;
  }

  @Override
  public void startPrefixMapping(String prefix, String uri) {
    pendingNamespaces.append(prefix).append('\u0000').append(renamed(uri)).append('\u0000');
  }

  @Override
  public void startElement(String uri, String localName, String qName, Attributes attributes)
      throws SAXException {
    SourcePosition position = tagStart();
    if (open.size() > maxDepth) {
      throw new TooDeep(position.line(), position.column());
    }
    Element element;
    String name = qName;
    try {
      element = document.createElementNS(emptyToNull(renamed(uri)), qName);
      declarePendingNamespaces(element);
      for (int i = 0; i < attributes.getLength(); i++) {
        name = attributes.getQName(i);
        element.setAttributeNS(emptyToNull(attributes.getURI(i)), name, attributes.getValue(i));
      }
    } catch (DOMException e) {
      // SAX lets some names through that the DOM refuses, e.g. an empty prefix (":name")
      throw new BadName(name, position.line(), position.column());
    }
    position.attachTo(element);
    open.peek().appendChild(element);
    open.push(element);
  }

  @Override
  public void endElement(String uri, String localName, String qName) {
    open.pop();
  }

  @Override
  public void characters(char[] ch, int start, int length) {
    Node parent = open.peek();
    if (parent != document) {
      parent.appendChild(document.createTextNode(new String(ch, start, length)));
    }
  }

  private void declarePendingNamespaces(Element element) {
    String[] parts = pendingNamespaces.toString().split("\u0000", -1);
    for (int i = 0; i + 1 < parts.length; i += 2) {
      String name = parts[i].isEmpty() ? "xmlns" : "xmlns:" + parts[i];
      element.setAttributeNS("http://www.w3.org/2000/xmlns/", name, parts[i + 1]);
    }
    pendingNamespaces.setLength(0);
  }

  private String renamed(String uri) {
    if (JsdlNamespaces.JSDL_DRAFT_2005_04.equals(uri)) {
      draftNamespaceSeen = true;
      return JsdlNamespaces.JSDL;
    }
    if (JsdlNamespaces.HPCPA_OGF.equals(uri)) {
      return JsdlNamespaces.HPCPA;
    }
    return uri;
  }

  private SourcePosition tagStart() {
    if (locator == null) {
      return SourcePosition.NONE;
    }
    if (sourceText == null) {
      String encoding = locator instanceof Locator2 l2 ? l2.getEncoding() : null;
      sourceText = new SourceText(bytes, encoding);
    }
    return sourceText.tagStart(locator.getLineNumber(), locator.getColumnNumber());
  }

  private void warnAboutDraftNamespace() {
    if (draftNamespaceSeen) {
      Element root = document.getDocumentElement();
      SourcePosition at = SourcePosition.of(root);
      report.warning(
          at.line(),
          at.column(),
          root.getLocalName(),
          "the draft JSDL namespace "
              + JsdlNamespaces.JSDL_DRAFT_2005_04
              + " is read as "
              + JsdlNamespaces.JSDL
              + "; change the document to the JSDL 1.0 namespace");
    }
  }

  private static String emptyToNull(String uri) {
    return uri == null || uri.isEmpty() ? null : uri;
  }

  /** Thrown out of the SAX pass to stop at once; carries the start tag's position. */
  /** A name the namespaces recommendation does not allow, where SAX let it through. */
  private static final class BadName extends SAXException {
    final int line;
    final int column;

    BadName(String name, int line, int column) {
      super(
          "'"
              + (name.length() > 80 ? name.substring(0, 80) + "..." : name)
              + "' is not a name XML namespaces allow (a prefix, if any, and a local name, both"
              + " non-empty, around one colon)");
      this.line = line;
      this.column = column;
    }
  }

  private static final class TooDeep extends SAXException {
    final int line;
    final int column;

    TooDeep(int line, int column) {
      super("too deep");
      this.line = line;
      this.column = column;
    }
  }
}
