package io.gantry.jsdl;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * A job's {@code gx:Notify} element: which of its events are sent (no {@code Event}: every one) to
 * which HTTPS webhooks and e-mail addresses. Read from the job description as stored, so that the
 * server's notification delivery needs nothing but the job store.
 *
 * @param events event types without their {@code io.gantry.} prefix, or {@code *}
 * @param webhooks HTTPS URLs, as written (the server checks them against its allow-list)
 * @param mailboxes e-mail addresses, as written
 */
public record NotifyRequest(List<String> events, List<String> webhooks, List<String> mailboxes) {

  public NotifyRequest {
    events = List.copyOf(events);
    webhooks = List.copyOf(webhooks);
    mailboxes = List.copyOf(mailboxes);
  }

  /** Whether an event of {@code type} (e.g. {@code io.gantry.job.failed}) is asked for. */
  public boolean wants(String type) {
    String shortType = type.startsWith("io.gantry.") ? type.substring(10) : type;
    return events.isEmpty() || events.contains("*") || events.contains(shortType);
  }

  /**
   * The {@code gx:Notify} of a job description; empty when it has none or is not readable XML (a
   * job the parser accepted always is).
   */
  public static Optional<NotifyRequest> of(String jobDescription) {
    Document document;
    try {
      document = HardenedXml.parse(jobDescription);
    } catch (SAXException | IOException e) {
      return Optional.empty();
    }
    Element root = document.getDocumentElement();
    for (Element description : children(root, JsdlNamespaces.JSDL, "JobDescription")) {
      for (Element notify : children(description, JsdlNamespaces.GANTRY, "Notify")) {
        return Optional.of(
            new NotifyRequest(
                texts(notify, "Event"), texts(notify, "Webhook"), texts(notify, "Mail")));
      }
    }
    return Optional.empty();
  }

  private static List<String> texts(Element parent, String name) {
    return children(parent, JsdlNamespaces.GANTRY, name).stream()
        .map(e -> e.getTextContent().strip())
        .toList();
  }

  private static List<Element> children(Element parent, String namespace, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && namespace.equals(e.getNamespaceURI())
          && name.equals(e.getLocalName())) {
        found.add(e);
      }
    }
    return found;
  }
}
