package io.gantry.jsdl.internal;

import org.xml.sax.SAXParseException;

/** Words for the XML parser's refusals, which name features rather than what to do. */
final class ParseMessages {
  private ParseMessages() {}

  static String wellFormedness(SAXParseException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("DOCTYPE is disallowed")) {
      return "DOCTYPE declarations are not allowed in a job description (they can read local"
          + " files or expand entities); remove the <!DOCTYPE ...> and the entities it declares";
    }
    if (message.contains("external entities are not allowed")) {
      return "external entities are not allowed in a job description";
    }
    if (message.contains("Premature end of file")
        || message.contains("Content is not allowed in prolog")) {
      return "this is not an XML document (" + message + ")";
    }
    return "the document is not well-formed XML: " + message;
  }
}
