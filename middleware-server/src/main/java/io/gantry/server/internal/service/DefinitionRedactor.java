package io.gantry.server.internal.service;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JsdlNamespaces;
import java.io.IOException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * A stored job description with its password values replaced. Passwords in job descriptions are
 * already encrypted, but a ciphertext is still nobody else's business, and a description read back
 * is often pasted into tickets and mails. The owner's own copy keeps its {@code ENC(...)} values,
 * so that it can be submitted again: each is bound to its owner and destination and decrypts for
 * nobody else. Anything else in a password element is replaced.
 */
final class DefinitionRedactor {
  static final String REDACTED = "REDACTED";
  private static final String[] SECRET_ELEMENTS = {"RemotePassword", "Password"};

  private DefinitionRedactor() {}

  /**
   * @param forOwner whether the reader owns the job (and keeps its encrypted values)
   */
  static Element redacted(String jobDescription, boolean forOwner) {
    Document doc = parse(jobDescription);
    for (String name : SECRET_ELEMENTS) {
      NodeList nodes = doc.getElementsByTagNameNS(JsdlNamespaces.GANTRY, name);
      for (int i = 0; i < nodes.getLength(); i++) {
        boolean bound = nodes.item(i).getTextContent().strip().startsWith(EncryptedSecret.PREFIX);
        if (!(forOwner && bound)) {
          nodes.item(i).setTextContent(REDACTED);
        }
      }
    }
    return doc.getDocumentElement();
  }

  private static Document parse(String xml) {
    try {
      return HardenedXml.parse(xml);
    } catch (SAXException | IOException e) {
      throw new IllegalStateException(
          "stored job description cannot be read: " + e.getMessage(), e);
    }
  }
}
