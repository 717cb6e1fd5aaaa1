package io.gantry.jsdl.internal;

import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Small DOM look-ups used by the checks; null-tolerant, since a document may be invalid. */
final class Dom {
  private Dom() {}

  static List<Element> children(Element parent) {
    List<Element> children = new ArrayList<>();
    if (parent != null) {
      for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n instanceof Element e) {
          children.add(e);
        }
      }
    }
    return children;
  }

  static List<Element> children(Element parent, String namespace, String localName) {
    return children(parent).stream().filter(e -> is(e, namespace, localName)).toList();
  }

  static Element child(Element parent, String namespace, String localName) {
    List<Element> found = children(parent, namespace, localName);
    return found.isEmpty() ? null : found.get(0);
  }

  static boolean is(Element e, String namespace, String localName) {
    return e != null && namespace.equals(e.getNamespaceURI()) && localName.equals(e.getLocalName());
  }

  /** The element's text, stripped; null for a missing element. */
  static String text(Element e) {
    return e == null ? null : e.getTextContent().strip();
  }

  /** The element's whole-number value, or null where it is missing or not a number. */
  static Long number(Element e) {
    String text = text(e);
    if (text == null) {
      return null;
    }
    try {
      return Long.parseLong(text.startsWith("+") ? text.substring(1) : text);
    } catch (NumberFormatException notANumber) {
      return null; // the schema check has already said so
    }
  }
}
