package io.gantry.jsdl.internal;

import io.gantry.jsdl.ValidationReport;
import org.w3c.dom.Element;

/** Adds problems to a report at an element's position and path. */
final class Findings {
  private final ValidationReport report;

  Findings(ValidationReport report) {
    this.report = report;
  }

  void error(Element element, String message) {
    SourcePosition at = SourcePosition.of(element);
    report.error(at.line(), at.column(), ElementPaths.of(element), message);
  }

  void warning(Element element, String message) {
    SourcePosition at = SourcePosition.of(element);
    report.warning(at.line(), at.column(), ElementPaths.of(element), message);
  }

  /** Errors unless the element's whole number is at least {@code least}; silent if absent. */
  void atLeast(Element element, long least) {
    Long value = Dom.number(element);
    if (value != null && value < least) {
      error(element, "must be at least " + least + ", not " + value);
    }
  }
}
