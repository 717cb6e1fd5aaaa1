package io.gantry.jsdl.internal;

import io.gantry.jsdl.JsdlNamespaces;
import io.gantry.jsdl.ParserOptions;
import io.gantry.jsdl.StagingPolicy;
import io.gantry.jsdl.ValidationReport;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Everything checked on a well-formed document, in one report: the root, the schemas, then the
 * rules a schema cannot express. The later checks run even after schema errors (they tolerate
 * missing parts) so that one submission shows the user every problem at once.
 */
public final class DocumentChecks {
  private DocumentChecks() {}

  public static void check(Document document, ParserOptions options, ValidationReport report) {
    check(document, options, StagingPolicy.CLIENT_SIDE, report);
  }

  public static void check(
      Document document, ParserOptions options, StagingPolicy policy, ValidationReport report) {
    Element root = document.getDocumentElement();
    if (!Dom.is(root, JsdlNamespaces.JSDL, "JobDefinition")) {
      SourcePosition at = SourcePosition.of(root);
      report.error(
          at.line(),
          at.column(),
          root.getLocalName(),
          "the root element must be"
              + " JobDefinition in the JSDL namespace "
              + JsdlNamespaces.JSDL
              + ", not "
              + root.getLocalName()
              + (root.getNamespaceURI() == null
                  ? " without a namespace"
                  : " in " + root.getNamespaceURI()));
      return;
    }
    Findings findings = new Findings(report);
    DeprecatedSpellings.rename(document, findings);
    SchemaMessages.report(SchemaValidation.validate(document), report);
    JobDirectoryPaths paths = new JobDirectoryPaths(options.allowedRoots());
    new StructureChecks(findings).check(root);
    new ApplicationChecks(findings, paths).check(root);
    new StagingChecks(findings, paths, policy).check(root);
    new NotifyChecks(findings, policy).check(root);
    new WallTimeChecks(findings, options.maxWallTimeSeconds()).check(root);
    new ResourceChecks(findings).check(root);
  }
}
