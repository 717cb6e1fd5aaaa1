package io.gantry.jsdl.internal;

import io.gantry.jsdl.HardenedXml;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Which element names are required wherever our schemas use them, read from the XSDs.
 *
 * <p>The validator's "one of {X} is expected" does not say whether X was required or merely
 * allowed; "X is missing" is only true in the first case, so the messages ask this index. Names are
 * keyed by local name alone and count as required only if no schema makes them optional anywhere: a
 * wrong "is missing" would mislead, a neutral "expected X" never does. Keys are {@code
 * {namespace}localName}, as the validator names elements in its messages.
 */
final class RequiredElements {
  private static final String XSD = "http://www.w3.org/2001/XMLSchema";
  private static final Map<String, Boolean> REQUIRED = load();

  private RequiredElements() {}

  static boolean isRequired(String namespace, String localName) {
    return REQUIRED.getOrDefault("{" + namespace + "}" + localName, false);
  }

  private static Map<String, Boolean> load() {
    Map<String, Boolean> required = new HashMap<>();
    for (String file : JsdlSchemas.FILES) {
      Document schema = parse(file);
      String target = schema.getDocumentElement().getAttribute("targetNamespace");
      NodeList elements = schema.getElementsByTagNameNS(XSD, "element");
      for (int i = 0; i < elements.getLength(); i++) {
        Element declaration = (Element) elements.item(i);
        if (declaration.hasAttribute("name") && isTopLevel(declaration)) {
          continue;
        }
        String key =
            declaration.hasAttribute("ref")
                ? qualified(declaration, declaration.getAttribute("ref"))
                : "{" + target + "}" + declaration.getAttribute("name");
        required.merge(key, isRequiredHere(declaration), Boolean::logicalAnd);
      }
    }
    return Map.copyOf(required);
  }

  private static String qualified(Element declaration, String ref) {
    int colon = ref.indexOf(':');
    String prefix = colon < 0 ? null : ref.substring(0, colon);
    return "{" + declaration.lookupNamespaceURI(prefix) + "}" + ref.substring(colon + 1);
  }

  private static boolean isTopLevel(Element declaration) {
    return "schema".equals(declaration.getParentNode().getLocalName());
  }

  /** Required unless it, or a group around it, may occur zero times, or it is one choice. */
  private static boolean isRequiredHere(Element declaration) {
    for (Node n = declaration;
        n instanceof Element e && !"complexType".equals(e.getLocalName());
        n = n.getParentNode()) {
      if ("0".equals(e.getAttribute("minOccurs")) || "choice".equals(e.getLocalName())) {
        return false;
      }
    }
    return true;
  }

  private static Document parse(String file) {
    try (InputStream in = JsdlSchemas.resource(file).openStream()) {
      return HardenedXml.documentBuilderFactory().newDocumentBuilder().parse(in);
    } catch (Exception e) {
      throw new IllegalStateException("cannot read schema " + file + ": " + e.getMessage(), e);
    }
  }
}
