package io.gantry.web;

import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JsdlNamespaces;
import io.gantry.web.WizardStage.Kind;
import java.io.StringWriter;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Turns the wizard's job into an extended JSDL document, in the element order the schemas ask for.
 * Required elements are written even when their field is empty, so that the server's report names
 * the element, and the wizard can put the problem next to that field. Optional elements with an
 * empty field are left out. Passwords are already {@code ENC(...)} values. A job template's text,
 * <code>${name}</code> references included, is written as the user typed it, with its {@code
 * gx:Parameters}; its values never enter the document.
 */
final class WizardJsdlComposer {
  // short names for the namespaces every line below writes in
  private static final String JSDL = JsdlNamespaces.JSDL;
  private static final String GX = JsdlNamespaces.GANTRY;

  private WizardJsdlComposer() {}

  static Document compose(WizardJob job) {
    Document doc = newDocument();
    Element root = doc.createElementNS(JSDL, "jsdl:JobDefinition");
    root.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:gx", GX);
    doc.appendChild(root);
    Element description = jsdl(root, "JobDescription");
    if (!(job.value("name") + job.value("description") + job.value("project")).isBlank()) {
      Element id = jsdl(description, "JobIdentification");
      optional(id, JSDL, "JobName", job.value("name"));
      optional(id, JSDL, "Description", job.value("description"));
      optional(id, JSDL, "JobProject", job.value("project"));
    }
    Element application = jsdl(description, "Application");
    optional(application, JSDL, "ApplicationName", job.value("applicationName"));
    optional(application, JSDL, "ApplicationVersion", job.value("applicationVersion"));
    if (isNamedApplication(job)) {
      // the server's application of that name: only the process count is the job's to choose,
      // and without one the application's own count applies (var-job-named.jsdl gives none)
      if (!job.value("processes").isBlank()) {
        Element resources = jsdl(description, "Resources");
        text(jsdl(resources, "TotalCPUCount"), JSDL, "Exact", job.value("processes"));
      }
    } else {
      application(gx(application, "MpirunApplication"), job);
    }
    parameters(description, job.getParameters());
    stages(description, "PreDataStaging", job.getPre());
    stages(description, "PostDataStaging", job.getPost());
    // the priority class, after the standard elements as the schema wants (gantry-jsdl-ext.xsd)
    optional(description, GX, "Queue", job.value("queue").strip());
    return doc;
  }

  /** No executable but an application name: the job runs the server's named application. */
  static boolean isNamedApplication(WizardJob job) {
    return job.value("executable").isBlank() && !job.value("applicationName").isBlank();
  }

  static String toXml(Document doc) {
    try {
      Transformer out = HardenedXml.transformerFactory().newTransformer();
      out.setOutputProperty(OutputKeys.INDENT, "yes");
      out.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      out.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
      StringWriter text = new StringWriter();
      out.transform(new DOMSource(doc), new StreamResult(text));
      // the declaration shares line 1 with the root, as the server numbers lines of the element
      // alone
      return text.toString();
    } catch (TransformerException e) {
      throw new IllegalStateException("cannot write the job description", e);
    }
  }

  private static void application(Element app, WizardJob job) {
    text(app, GX, "Executable", job.value("executable"));
    optional(app, GX, "WorkingDirectory", job.value("workingDirectory"));
    for (String argument : WizardForm.lines(job.value("arguments"))) {
      text(app, GX, "Argument", argument);
    }
    for (String line : WizardForm.lines(job.value("environment"))) {
      int eq = line.indexOf('=');
      Element env = text(app, GX, "Environment", eq < 0 ? "" : line.substring(eq + 1));
      env.setAttribute("name", eq < 0 ? line : line.substring(0, eq));
    }
    text(app, GX, "NumberOfProcesses", job.value("processes"));
    optional(app, GX, "HostFile", job.value("hostFile"));
    optional(app, GX, "Partition", job.value("partition"));
    optional(app, GX, "Verbosity", job.value("verbosity"));
    for (String option : WizardForm.lines(job.value("mpirunOptions"))) {
      text(app, GX, "MpirunOption", option);
    }
    optional(app, GX, "WallTimeLimit", job.value("wallTime"));
    optional(app, GX, "StdoutFileName", job.value("stdout"));
    optional(app, GX, "StderrFileName", job.value("stderr"));
  }

  /**
   * A job template's declarations, each attribute as typed (an empty field writes none). The values
   * are not the document's: they go with it to validateJob and submitJob.
   */
  private static void parameters(Element description, List<WizardParameter> parameters) {
    if (parameters.isEmpty()) {
      return;
    }
    Element list = gx(description, "Parameters");
    for (WizardParameter p : parameters) {
      Element e = gx(list, "Parameter");
      for (String field : WizardParameter.FIELDS) {
        if (p.getValues().containsKey(field)) {
          e.setAttribute(field, p.value(field));
        }
      }
      if (!e.hasAttribute("name")) {
        e.setAttribute("name", ""); // the schema requires it; the report names it at this field
      }
    }
  }

  private static void stages(Element description, String name, List<WizardStage> stages) {
    if (stages.isEmpty()) {
      return;
    }
    Element list = gx(description, name);
    for (WizardStage stage : stages) {
      Element e = gx(list, stage.kind().element);
      if (stage.kind() == Kind.SCP) {
        scp(e, stage);
      } else {
        sql(e, stage);
      }
    }
  }

  private static void scp(Element e, WizardStage s) {
    text(e, GX, "ArrangingOrder", s.value("order"));
    text(e, GX, "Direction", s.value("direction"));
    optional(e, GX, "Protocol", s.value("protocol"));
    text(e, GX, "RemoteHostName", s.value("host"));
    optional(e, GX, "RemotePort", s.value("port"));
    text(e, GX, "RemoteUserId", s.value("user"));
    if ("password".equals(s.value("authKind"))) {
      text(e, GX, "RemotePassword", s.value("password"));
    } else {
      text(e, GX, "IdentityRef", s.value("identityRef"));
    }
    text(e, GX, "SourceFileName", s.value("source"));
    text(e, GX, "TargetFileName", s.value("target"));
    optional(e, GX, "Compression", s.value("compression"));
    optional(e, GX, "CacheValidity", s.value("cacheValidity"));
  }

  private static void sql(Element e, WizardStage s) {
    if ("inline".equals(s.value("dsKind"))) {
      Element ds = gx(e, "DataSource");
      text(ds, GX, "JDBCURL", s.value("jdbcUrl"));
      text(ds, GX, "UserId", s.value("dbUser"));
      text(ds, GX, "Password", s.value("dbPassword"));
    } else {
      text(e, GX, "DataSourceRef", s.value("dataSourceRef"));
    }
    text(e, GX, "ExecutionOrderGroup", s.value("group"));
    text(e, GX, "SQLStatement", s.value("statement"));
    if (s.kind() == Kind.SQL_QUERY) {
      text(e, GX, "SQLOutputFileName", s.value("outputFile"));
      optional(e, GX, "SQLInputFileName", s.value("inputFile"));
      optional(e, GX, "SQLOutputFileCreationFlag", s.value("creationFlag"));
      optional(e, GX, "SQLInputFileCompression", s.value("inputCompression"));
      optional(e, GX, "SQLOutputFileCompression", s.value("outputCompression"));
      optional(e, GX, "CacheValidity", s.value("cacheValidity"));
      optional(e, GX, "CacheKeyQuery", s.value("cacheKeyQuery"));
    } else {
      text(e, GX, "SQLInputFileName", s.value("inputFile"));
      optional(e, GX, "SQLInputFileCompression", s.value("inputCompression"));
      optional(e, GX, "BatchSize", s.value("batchSize"));
    }
  }

  private static Element jsdl(Element parent, String name) {
    return child(parent, JSDL, "jsdl:" + name);
  }

  private static Element gx(Element parent, String name) {
    return child(parent, GX, "gx:" + name);
  }

  private static Element child(Element parent, String namespace, String qualifiedName) {
    Element e = parent.getOwnerDocument().createElementNS(namespace, qualifiedName);
    parent.appendChild(e);
    return e;
  }

  private static Element text(Element parent, String namespace, String name, String value) {
    Element e = child(parent, namespace, (namespace.equals(JSDL) ? "jsdl:" : "gx:") + name);
    e.setTextContent(value);
    return e;
  }

  private static void optional(Element parent, String namespace, String name, String value) {
    if (value != null && !value.isBlank()) {
      text(parent, namespace, name, value);
    }
  }

  static Document newDocument() {
    return HardenedXml.newDocument();
  }
}
