package io.gantry.jsdl;

import io.gantry.jsdl.internal.ElementPaths;
import io.gantry.jsdl.internal.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What {@link JsdlParser} found: the report, and the job when there is no error. */
public final class ParseResult {
  private final ValidationReport report;
  private final JsdlJob job;

  /** The document as read (positions kept, a template filled); null when it could not be read. */
  private final Document document;

  ParseResult(ValidationReport report, JsdlJob job) {
    this(report, job, null);
  }

  /**
   * The same document with positions, for one read without them (a SOAP body's element read once,
   * {@link JsdlParser#parse(Element, java.util.Map)}); null when {@link #document} has them.
   */
  private final Supplier<Document> positions;

  private Document positioned;

  ParseResult(ValidationReport report, JsdlJob job, Document document) {
    this(report, job, document, null);
  }

  ParseResult(
      ValidationReport report, JsdlJob job, Document document, Supplier<Document> positions) {
    this.report = report;
    this.job = job;
    this.document = document;
    this.positions = positions;
  }

  /** The document as read, with positions; null when it could not be read. */
  Document positionedDocument() {
    if (positions == null) {
      return document;
    }
    synchronized (this) {
      if (positioned == null) {
        positioned = positions.get();
      }
      return positioned;
    }
  }

  /**
   * The text (stripped) of every element {@code localName} of {@code namespace}, in document order:
   * {@link #elements} without their places, which a document read once finds only by reading it
   * again.
   */
  public List<String> texts(String namespace, String localName) {
    List<String> found = new ArrayList<>();
    if (document != null) {
      NodeList nodes = document.getElementsByTagNameNS(namespace, localName);
      for (int i = 0; i < nodes.getLength(); i++) {
        found.add(nodes.item(i).getTextContent().strip());
      }
    }
    return found;
  }

  /** Every element {@code localName} of {@code namespace}, in document order, with its place. */
  public List<LocatedElement> elements(String namespace, String localName) {
    List<LocatedElement> found = new ArrayList<>();
    if (document != null) {
      NodeList nodes = document.getElementsByTagNameNS(namespace, localName);
      for (int i = 0; i < nodes.getLength(); i++) {
        found.add(located((Element) nodes.item(i)));
      }
    }
    return found;
  }

  /**
   * The element a problem's path names ({@code JobDefinition/JobDescription/...}), if the document
   * has it: where a problem another reader of the same document reported lies in this one's text.
   */
  public Optional<LocatedElement> at(String path) {
    if (document == null || path == null || path.isEmpty()) {
      return Optional.empty();
    }
    NodeList nodes = document.getElementsByTagNameNS("*", "*");
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      if (path.equals(ElementPaths.of(e))) {
        return Optional.of(located(e));
      }
    }
    return Optional.empty();
  }

  private LocatedElement located(Element e) {
    SourcePosition at = positions == null ? SourcePosition.of(e) : positionOf(e);
    return new LocatedElement(
        at.line(), at.column(), ElementPaths.of(e), e.getTextContent().strip());
  }

  /** {@code e}'s position in the positioned document: the element at the same place in order. */
  private SourcePosition positionOf(Element e) {
    NodeList all = document.getElementsByTagNameNS("*", "*");
    Document withPositions = positionedDocument();
    if (withPositions == null) {
      return SourcePosition.of(null);
    }
    NodeList same = withPositions.getElementsByTagNameNS("*", "*");
    for (int i = 0; i < all.getLength() && i < same.getLength(); i++) {
      if (all.item(i) == e) {
        return SourcePosition.of((Element) same.item(i));
      }
    }
    return SourcePosition.of(null);
  }

  public ValidationReport report() {
    return report;
  }

  /** True when there is no error; warnings do not make a job invalid. */
  public boolean isValid() {
    return !report.hasErrors();
  }

  /** The job, present exactly when {@link #isValid()}. */
  public Optional<JsdlJob> job() {
    return Optional.ofNullable(job);
  }

  /** The job of a valid document; IllegalStateException with the report otherwise. */
  public JsdlJob validJob() {
    if (job == null) {
      throw new IllegalStateException("the job description is invalid:\n" + report);
    }
    return job;
  }
}
