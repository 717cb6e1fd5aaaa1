package io.gantry.cli;

import io.gantry.jsdl.JsdlNamespaces;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import picocli.CommandLine.Option;

/**
 * {@code gantry submit}'s {@code --after}, {@code --after-any}, {@code --after-start} and {@code
 * --hold}, written into the job description as its {@code gx:Dependencies} element (merged with one
 * the file has): the document is the one place a job's dependencies are said, so {@code gantry
 * definition} shows them and every SOAP client can say the same.
 */
final class JobDependencyOptions {
  @Option(
      names = "--after",
      paramLabel = "JOB",
      description =
          "start only after job JOB SUCCEEDED (repeatable); if JOB ends otherwise this job FAILS"
              + " (DependencyNeverSatisfied)")
  List<String> after = new ArrayList<>();

  @Option(
      names = "--after-any",
      paramLabel = "JOB",
      description = "start only after job JOB ended, whatever the outcome (repeatable)")
  List<String> afterAny = new ArrayList<>();

  @Option(
      names = "--after-start",
      paramLabel = "JOB",
      description =
          "start once job JOB's program started, to stream its gantry-job: files while it writes"
              + " them (repeatable); if JOB ends otherwise than SUCCEEDED this job FAILS")
  List<String> afterStart = new ArrayList<>();

  @Option(names = "--hold", description = "submit the job held: it waits until 'gantry release ID'")
  boolean hold;

  boolean any() {
    return hold || !after.isEmpty() || !afterAny.isEmpty() || !afterStart.isEmpty();
  }

  /** Adds the options to the document's JobDescription, keeping what the file said. */
  void applyTo(Element jobDefinition) {
    if (!any()) {
      return;
    }
    Element description =
        firstChild(jobDefinition, jobDefinition.getNamespaceURI(), "JobDescription");
    if (description == null) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO,
          "--after, --after-any, --after-start and --hold need a JobDescription element in the job"
              + " description");
    }
    String gx = JsdlNamespaces.GANTRY;
    Element existing = firstChild(description, gx, "Dependencies");
    Set<String> afterIds = new LinkedHashSet<>(texts(existing, "After"));
    afterIds.addAll(after);
    Set<String> afterAnyIds = new LinkedHashSet<>(texts(existing, "AfterAny"));
    afterAnyIds.addAll(afterAny);
    Set<String> afterStartIds = new LinkedHashSet<>(texts(existing, "AfterStart"));
    afterStartIds.addAll(afterStart);
    List<String> held = texts(existing, "Hold");
    boolean holdIt = hold || (!held.isEmpty() && List.of("yes", "true").contains(held.get(0)));
    Element dependencies = description.getOwnerDocument().createElementNS(gx, "gx:Dependencies");
    afterIds.forEach(id -> add(dependencies, "After", id));
    afterAnyIds.forEach(id -> add(dependencies, "AfterAny", id));
    afterStartIds.forEach(id -> add(dependencies, "AfterStart", id));
    if (holdIt) {
      add(dependencies, "Hold", "true");
    }
    if (existing != null) {
      description.replaceChild(dependencies, existing);
    } else {
      description.appendChild(dependencies); // after the standard elements, as the schema wants
    }
  }

  private static void add(Element parent, String name, String text) {
    Element e = parent.getOwnerDocument().createElementNS(JsdlNamespaces.GANTRY, "gx:" + name);
    e.setTextContent(text.strip());
    parent.appendChild(e);
  }

  private static List<String> texts(Element parent, String name) {
    List<String> all = new ArrayList<>();
    if (parent == null) {
      return all;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && JsdlNamespaces.GANTRY.equals(e.getNamespaceURI())
          && name.equals(e.getLocalName())) {
        all.add(e.getTextContent().strip());
      }
    }
    return all;
  }

  private static Element firstChild(Element parent, String namespace, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && java.util.Objects.equals(namespace, e.getNamespaceURI())
          && name.equals(e.getLocalName())) {
        return e;
      }
    }
    return null;
  }
}
