package io.gantry.jsdl;

import jakarta.xml.bind.JAXBElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.w3c.dom.Element;

/**
 * Structural equality of two generated JAXB models (xjc makes no equals): field by field,
 * JAXBElements by name and value, foreign DOM elements by {@link Element#isEqualNode}. Returns the
 * first difference as a path, or null when equal.
 */
final class ModelEquality {
  private ModelEquality() {}

  static String difference(Object a, Object b) {
    return difference("", a, b);
  }

  private static String difference(String path, Object a, Object b) {
    if (a == null || b == null) {
      return a == b ? null : path + ": " + a + " vs " + b;
    }
    if (a.getClass() != b.getClass()) {
      return path + ": " + a.getClass() + " vs " + b.getClass();
    }
    if (a instanceof JAXBElement<?> x && b instanceof JAXBElement<?> y) {
      return x.getName().equals(y.getName())
          ? difference(path + "/" + x.getName().getLocalPart(), x.getValue(), y.getValue())
          : path + ": " + x.getName() + " vs " + y.getName();
    }
    if (a instanceof Element x) {
      return sameForeignElement(x, (Element) b) ? null : path + ": foreign elements differ";
    }
    if (a instanceof List<?> x) {
      List<?> y = (List<?>) b;
      if (x.size() != y.size()) {
        return path + ": " + x.size() + " vs " + y.size() + " items";
      }
      Iterator<?> i = y.iterator();
      int n = 0;
      for (Object item : x) {
        String d = difference(path + "[" + n++ + "]", item, i.next());
        if (d != null) {
          return d;
        }
      }
      return null;
    }
    if (a instanceof Map<?, ?>
        || a instanceof String
        || a instanceof Number
        || a instanceof Boolean
        || a instanceof Enum<?>
        || a instanceof javax.xml.datatype.Duration // xsd:duration, a JDK-internal class
        || a.getClass().getName().startsWith("java")
        || a.getClass().getName().startsWith("javax")) {
      return Objects.equals(a, b) ? null : path + ": " + a + " vs " + b;
    }
    return fields(path, a, b);
  }

  /** Same names, attributes (namespace declarations aside), text and children, recursively. */
  private static boolean sameForeignElement(Element a, Element b) {
    if (!Objects.equals(a.getNamespaceURI(), b.getNamespaceURI())
        || !a.getLocalName().equals(b.getLocalName())
        || !attributes(a).equals(attributes(b))
        || !a.getTextContent().strip().equals(b.getTextContent().strip())) {
      return false;
    }
    List<Element> x = children(a);
    List<Element> y = children(b);
    if (x.size() != y.size()) {
      return false;
    }
    for (int i = 0; i < x.size(); i++) {
      if (!sameForeignElement(x.get(i), y.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static Map<String, String> attributes(Element e) {
    Map<String, String> attributes = new java.util.TreeMap<>();
    for (int i = 0; i < e.getAttributes().getLength(); i++) {
      org.w3c.dom.Node a = e.getAttributes().item(i);
      if (!"http://www.w3.org/2000/xmlns/".equals(a.getNamespaceURI())) {
        attributes.put("{" + a.getNamespaceURI() + "}" + a.getLocalName(), a.getNodeValue());
      }
    }
    return attributes;
  }

  private static List<Element> children(Element e) {
    List<Element> children = new java.util.ArrayList<>();
    for (org.w3c.dom.Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c) {
        children.add(c);
      }
    }
    return children;
  }

  private static String fields(String path, Object a, Object b) {
    for (Class<?> c = a.getClass(); c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        f.setAccessible(true);
        try {
          String d = difference(path + "." + f.getName(), f.get(a), f.get(b));
          if (d != null) {
            return d;
          }
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return null;
  }
}
