package io.gantry.server.internal.service;

import io.gantry.jsdl.HardenedXml;
import io.gantry.server.api.JobDocument;
import java.io.IOException;
import java.util.Map;
import org.xml.sax.SAXException;

/** A job description the store keeps (text), as the API's document with parameter values. */
final class StoredDocuments {
  private StoredDocuments() {}

  static JobDocument document(String description, Map<String, String> values) {
    try {
      return new JobDocument(
          HardenedXml.parse(description).getDocumentElement(), TemplateValues.toApi(values));
    } catch (SAXException | IOException e) {
      // the store holds only documents that parsed when they were accepted
      throw new IllegalStateException("a stored job description no longer reads as XML", e);
    }
  }
}
