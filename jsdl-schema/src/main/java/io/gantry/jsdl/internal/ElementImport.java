package io.gantry.jsdl.internal;

import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JsdlNamespaces;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * First pass over a JobDefinition element handed over inside a larger document (a SOAP body, which
 * the SOAP stack has already parsed): copies it into a document of its own, as {@link
 * LocatedDomReader} would read the element written out on its own, without writing it out and
 * parsing it again. The copy has no source positions: it is for a document that turns out to have
 * no problem to report, and the parser reads such an element the exact way (written out, read again
 * with positions) whenever a report needs a line and column.
 *
 * <p>The same document as the exact way gives: the element's own namespace declarations, plus one
 * for each element or attribute prefix not declared within it (what the serialiser adds), the HPC
 * Profile Application's ogf.org namespace renamed, text and CDATA as text, comments and processing
 * instructions left out.
 */
public final class ElementImport {
  private static final String XMLNS = "http://www.w3.org/2000/xmlns/";

  /** {@code <?xml version="1.0" encoding="UTF-8"?>}, which the exact way writes first. */
  private static final long DECLARATION_BYTES = 38;

  /**
   * At most this many bytes per character of a name, text or attribute value, written out: an
   * escape (&amp;quot;) or four UTF-8 bytes.
   */
  private static final long BYTES_PER_CHAR = 6;

  private final Document document;
  private final int maxDepth;
  private final long maxBytes;
  private long bytesAtMost = DECLARATION_BYTES;

  private ElementImport(int maxDepth, long maxBytes) {
    this.document = HardenedXml.newDocument();
    this.maxDepth = maxDepth;
    this.maxBytes = maxBytes;
  }

  /**
   * The copy, or null where only the exact way can say what to (nesting deeper than {@code
   * maxDepth}, the draft JSDL namespace and its warning, a node the exact way reads differently),
   * or where written out it might be larger than {@code maxBytes} (the bound counts every character
   * at its most costly, so a document near the limit takes the exact way, which measures it).
   */
  public static Document copy(Element source, int maxDepth, long maxBytes) {
    ElementImport copy = new ElementImport(maxDepth, maxBytes);
    Element root = copy.element(source, 1, new HashMap<>(Map.of("", "")));
    if (root == null) {
      return null;
    }
    copy.document.appendChild(root);
    return copy.document;
  }

  private Element element(Element source, int depth, Map<String, String> inScope) {
    if (depth > maxDepth || source.getLocalName() == null) {
      return null; // too deep (the exact way says where), or a node without namespace support
    }
    String namespace = renamed(source.getNamespaceURI());
    if (JsdlNamespaces.JSDL_DRAFT_2005_04.equals(namespace)) {
      return null; // read with a warning, which needs a position
    }
    Element copy = document.createElementNS(emptyToNull(namespace), source.getTagName());
    Map<String, String> scope = new HashMap<>(inScope);
    NamedNodeMap attributes = source.getAttributes();
    for (int i = 0; i < attributes.getLength(); i++) {
      Attr a = (Attr) attributes.item(i);
      if (XMLNS.equals(a.getNamespaceURI())) {
        String uri = renamed(a.getValue());
        if (JsdlNamespaces.JSDL_DRAFT_2005_04.equals(uri)) {
          return null;
        }
        String prefix = "xmlns".equals(a.getName()) ? "" : a.getLocalName();
        declare(copy, scope, prefix, uri);
      }
    }
    declareIfMissing(copy, scope, source.getPrefix(), source.getNamespaceURI());
    for (int i = 0; i < attributes.getLength(); i++) {
      Attr a = (Attr) attributes.item(i);
      if (XMLNS.equals(a.getNamespaceURI())) {
        continue;
      }
      if (a.getNamespaceURI() != null && !a.getNamespaceURI().isEmpty()) {
        if (a.getPrefix() == null) {
          return null; // a namespaced attribute without a prefix: the serialiser invents one
        }
        declareIfMissing(copy, scope, a.getPrefix(), a.getNamespaceURI());
      }
      if (!count(a.getName().length() + a.getValue().length(), 4)) {
        return null;
      }
      copy.setAttributeNS(emptyToNull(a.getNamespaceURI()), a.getName(), a.getValue());
    }
    if (!count(2L * source.getTagName().length(), 5)) {
      return null;
    }
    for (Node n = source.getFirstChild(); n != null; n = n.getNextSibling()) {
      switch (n.getNodeType()) {
        case Node.ELEMENT_NODE -> {
          Element child = element((Element) n, depth + 1, scope);
          if (child == null) {
            return null;
          }
          copy.appendChild(child);
        }
        case Node.TEXT_NODE, Node.CDATA_SECTION_NODE -> {
          String text = n.getNodeValue();
          if (!count(text.length(), 0)) {
            return null;
          }
          copy.appendChild(document.createTextNode(text));
        }
        case Node.COMMENT_NODE, Node.PROCESSING_INSTRUCTION_NODE -> {
          // the exact way's reader keeps neither
        }
        default -> {
          return null; // an entity reference or the like: left to the exact way
        }
      }
    }
    return copy;
  }

  /**
   * Declares {@code prefix} where the serialiser would: an element or attribute uses it unbound.
   */
  private void declareIfMissing(
      Element copy, Map<String, String> scope, String prefix, String namespace) {
    String p = prefix == null ? "" : prefix;
    String uri = renamed(namespace == null ? "" : namespace);
    if (!Objects.equals(scope.get(p), uri)) {
      declare(copy, scope, p, uri);
    }
  }

  private void declare(Element copy, Map<String, String> scope, String prefix, String uri) {
    count(prefix.length() + 7 + uri.length(), 0); // over the bound: the element's own count says so
    copy.setAttributeNS(XMLNS, prefix.isEmpty() ? "xmlns" : "xmlns:" + prefix, uri);
    scope.put(prefix, uri);
  }

  /** Adds {@code chars} characters and {@code fixed} bytes to the bound; false when over. */
  private boolean count(long chars, long fixed) {
    bytesAtMost += chars * BYTES_PER_CHAR + fixed;
    return bytesAtMost <= maxBytes;
  }

  private static String renamed(String uri) {
    return JsdlNamespaces.HPCPA_OGF.equals(uri) ? JsdlNamespaces.HPCPA : uri;
  }

  private static String emptyToNull(String uri) {
    return uri == null || uri.isEmpty() ? null : uri;
  }
}
