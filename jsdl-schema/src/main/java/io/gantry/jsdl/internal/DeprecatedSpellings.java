package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.JSDL;

import java.util.List;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Element names Gantry once accepted although the standard spells them otherwise, renamed to the
 * standard's spelling before validation so that the schema and the model know only the standard
 * one. Each rename is a warning at the element, so the author can fix the file.
 */
final class DeprecatedSpellings {
  private DeprecatedSpellings() {}

  /** Gantry's XSD said FileSystemName inside DataStaging; GFD.56 says FilesystemName. */
  static void rename(Document document, Findings findings) {
    Element description = Dom.child(document.getDocumentElement(), JSDL, "JobDescription");
    for (Element staging : Dom.children(description, JSDL, "DataStaging")) {
      List<Element> old = Dom.children(staging, JSDL, "FileSystemName");
      for (Element element : old) {
        findings.warning(
            element,
            "FileSystemName is Gantry's old spelling; JSDL 1.0 (GFD.56) spells"
                + " it FilesystemName, which is read instead");
        document.renameNode(element, JSDL, prefixed(element, "FilesystemName"));
      }
    }
  }

  private static String prefixed(Element element, String local) {
    return element.getPrefix() == null ? local : element.getPrefix() + ":" + local;
  }
}
