package io.gantry.jsdl.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Paths that name an element the way a user reads the document: local names from the root, with a
 * 1-based index where siblings share a name, e.g. {@code
 * JobDefinition/JobDescription/PreDataStaging/SQLQueryDataStaging[3]}.
 */
public final class ElementPaths {
  private ElementPaths() {}

  public static String of(Element element) {
    Deque<String> steps = new ArrayDeque<>();
    for (Node node = element; node instanceof Element e; node = node.getParentNode()) {
      steps.push(step(e));
    }
    return String.join("/", steps);
  }

  private static String step(Element element) {
    int index = 0;
    int count = 0;
    Node parent = element.getParentNode();
    for (Node sibling = parent == null ? null : parent.getFirstChild();
        sibling != null;
        sibling = sibling.getNextSibling()) {
      if (sibling instanceof Element s && sameName(s, element)) {
        count++;
        if (s == element) {
          index = count;
        }
      }
    }
    return count > 1 ? element.getLocalName() + "[" + index + "]" : element.getLocalName();
  }

  private static boolean sameName(Element a, Element b) {
    return Objects.equals(a.getNamespaceURI(), b.getNamespaceURI())
        && a.getLocalName().equals(b.getLocalName());
  }
}
