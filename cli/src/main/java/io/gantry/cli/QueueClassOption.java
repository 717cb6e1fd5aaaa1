package io.gantry.cli;

import io.gantry.jsdl.JsdlNamespaces;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import picocli.CommandLine.Option;

/**
 * {@code gantry submit --queue CLASS}, written into the job description as its {@code gx:Queue}
 * element (replacing one the file has), so the document says the class as every SOAP client would.
 */
final class QueueClassOption {
  @Option(
      names = "--queue",
      paramLabel = "CLASS",
      description =
          "the priority class the job waits in (e.g. urgent, normal, batch: the server's"
              + " queue.classes); default: the server's queue.default")
  String queueClass;

  /** Sets the document's gx:Queue to the option's class, if given. */
  void applyTo(Element jobDefinition) {
    if (queueClass == null) {
      return;
    }
    Element description = null;
    for (Node n = jobDefinition.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && java.util.Objects.equals(jobDefinition.getNamespaceURI(), e.getNamespaceURI())
          && "JobDescription".equals(e.getLocalName())) {
        description = e;
        break;
      }
    }
    if (description == null) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "--queue needs a JobDescription element in the job description");
    }
    Element queue =
        description.getOwnerDocument().createElementNS(JsdlNamespaces.GANTRY, "gx:Queue");
    queue.setTextContent(queueClass.strip());
    for (Node n = description.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && JsdlNamespaces.GANTRY.equals(e.getNamespaceURI())
          && "Queue".equals(e.getLocalName())) {
        description.replaceChild(queue, e);
        return;
      }
    }
    description.appendChild(queue); // after the standard elements, as the schema wants
  }
}
