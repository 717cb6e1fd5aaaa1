package io.gantry.web;

import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JsdlNamespaces;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParameterType;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.Problem;
import io.gantry.jsdl.Severity;
import io.gantry.web.WizardStage.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads an existing JSDL document into the wizard.
 *
 * <ol>
 *   <li>The document goes through {@link JsdlParser} first: one it finds invalid is refused with
 *       its located problems (line:column, element path), as the API reports them.
 *   <li>Every element and attribute the wizard has a field for is taken into a {@link WizardJob}. A
 *       job template's {@code gx:Parameters} become the wizard's declarations, and every <code>
 *       ${name}</code> stays in its field as written: the template is edited as a template.
 *   <li>Anything else (POSIX or SPMD applications, {@code jsdl:Resources}, standard {@code
 *       jsdl:DataStaging}, annotations, a second project, foreign extensions, ...) would be lost by
 *       the wizard's next save, so the document is refused, naming each such element: the wizard
 *       never silently drops part of a job. Such jobs are submitted as files ({@code gantry
 *       submit}).
 * </ol>
 */
final class WizardJsdlImporter {
  private static final Map<String, String> APPLICATION_FIELDS =
      Map.of(
          "Executable",
          "executable",
          "WorkingDirectory",
          "workingDirectory",
          "NumberOfProcesses",
          "processes",
          "HostFile",
          "hostFile",
          "Partition",
          "partition",
          "Verbosity",
          "verbosity",
          "WallTimeLimit",
          "wallTime",
          "StdoutFileName",
          "stdout",
          "StderrFileName",
          "stderr");
  private static final Map<String, String> SQL_FIELDS =
      Map.ofEntries(
          Map.entry("DataSourceRef", "dataSourceRef"),
          Map.entry("ExecutionOrderGroup", "group"),
          Map.entry("SQLStatement", "statement"),
          Map.entry("SQLOutputFileName", "outputFile"),
          Map.entry("SQLInputFileName", "inputFile"),
          Map.entry("SQLOutputFileCreationFlag", "creationFlag"),
          Map.entry("SQLInputFileCompression", "inputCompression"),
          Map.entry("SQLOutputFileCompression", "outputCompression"),
          Map.entry("BatchSize", "batchSize"),
          Map.entry("CacheValidity", "cacheValidity"),
          Map.entry("CacheKeyQuery", "cacheKeyQuery"));
  private static final Map<String, String> DATA_SOURCE_FIELDS =
      Map.of("JDBCURL", "jdbcUrl", "UserId", "dbUser", "Password", "dbPassword");
  private static final Map<String, String> SCP_FIELDS =
      Map.ofEntries(
          Map.entry("ArrangingOrder", "order"),
          Map.entry("Direction", "direction"),
          Map.entry("Protocol", "protocol"),
          Map.entry("RemoteHostName", "host"),
          Map.entry("RemotePort", "port"),
          Map.entry("RemoteUserId", "user"),
          Map.entry("RemotePassword", "password"),
          Map.entry("IdentityRef", "identityRef"),
          Map.entry("SourceFileName", "source"),
          Map.entry("TargetFileName", "target"),
          Map.entry("Compression", "compression"),
          Map.entry("CacheValidity", "cacheValidity"));

  /**
   * The job, or why it could not be read: the parser's problems or the elements the wizard lacks.
   */
  record Result(WizardJob job, List<String> problems, List<String> unsupported) {
    boolean ok() {
      return job != null;
    }
  }

  private final Set<Node> taken = new HashSet<>();
  private final List<String> unsupported = new ArrayList<>();

  private WizardJsdlImporter() {}

  static Result read(byte[] document, JsdlParser parser) {
    ParseResult parsed = parser.parse(document, sampleValues(document));
    if (!parsed.isValid()) {
      List<String> problems =
          parsed.report().problems().stream()
              .filter(p -> p.severity() == Severity.ERROR)
              .map(WizardJsdlImporter::located)
              .toList();
      return new Result(null, problems, List.of());
    }
    Element root;
    try {
      root = HardenedXml.parse(new ByteArrayInputStream(document)).getDocumentElement();
    } catch (SAXException | IOException e) {
      return new Result(null, List.of("the document cannot be read: " + e.getMessage()), List.of());
    }
    WizardJsdlImporter importer = new WizardJsdlImporter();
    WizardJob job = importer.job(root);
    importer.findUnsupported(root, "");
    WizardForm.checkParameters(job.getParameters());
    return importer.unsupported.isEmpty()
        ? new Result(job, List.of(), List.of())
        : new Result(null, List.of(), List.copyOf(importer.unsupported));
  }

  /**
   * A job template is checked as a whole before it is read, but its values are given only at
   * submission: a parameter without default gets a value of its type here (text "x", 2000-01-01, 1,
   * true), only so that the parser can check the rest of the document. Nothing of it reaches the
   * wizard, which keeps every <code>${name}</code> as written.
   */
  private static Map<String, String> sampleValues(byte[] document) {
    Map<String, String> samples = new java.util.LinkedHashMap<>();
    try {
      org.w3c.dom.NodeList declared =
          HardenedXml.parse(new ByteArrayInputStream(document))
              .getElementsByTagNameNS(JsdlNamespaces.GANTRY, "Parameter");
      for (int i = 0; i < declared.getLength(); i++) {
        Element p = (Element) declared.item(i);
        String name = p.getAttribute("name").strip();
        ParameterType type = ParameterType.named(p.getAttribute("type"));
        if (!p.hasAttribute("default")
            && type != null
            && io.gantry.jsdl.JobParameter.validName(name)) {
          samples.put(name, sample(type));
        }
      }
    } catch (SAXException | IOException e) {
      // the parser reports what is wrong with the document
    }
    return samples;
  }

  private static String sample(ParameterType type) {
    return switch (type) {
      case STRING -> "x";
      case DATE -> "2000-01-01";
      case INTEGER, DECIMAL -> "1";
      case BOOLEAN -> "true";
    };
  }

  static String located(Problem p) {
    return "line " + p.line() + ":" + p.column() + " " + p.path() + ": " + p.message();
  }

  private WizardJob job(Element root) {
    WizardJob job = new WizardJob();
    take(root);
    for (Element description : children(root)) {
      if (!isJsdl(description, "JobDescription")) {
        continue;
      }
      take(description);
      for (Element part : children(description)) {
        if (isJsdl(part, "JobIdentification")) {
          identification(part, job);
        } else if (isJsdl(part, "Application")) {
          application(part, job);
        } else if (isJsdl(part, "Resources")) {
          processCount(part, job);
        } else if (isGx(part, "Parameters")) {
          parameters(part, job);
        } else if (isGx(part, "Queue")) {
          job.set("queue", takeText(part).strip());
        } else if (isGx(part, "PreDataStaging") || isGx(part, "PostDataStaging")) {
          take(part);
          for (Element stage : children(part)) {
            stage(stage, job.stages(isGx(part, "PreDataStaging")));
          }
        }
      }
    }
    return job;
  }

  /** A job template's declarations, each attribute as written. */
  private void parameters(Element parameters, WizardJob job) {
    take(parameters);
    for (Element e : children(parameters)) {
      if (!isGx(e, "Parameter")) {
        continue;
      }
      take(e);
      WizardParameter p = new WizardParameter();
      for (String field : WizardParameter.FIELDS) {
        if (e.hasAttribute(field)) {
          p.set(field, e.getAttribute(field));
        }
      }
      job.getParameters().add(p);
    }
  }

  /** Resources/TotalCPUCount with one Exact: the process count of a named application's job. */
  private void processCount(Element resources, WizardJob job) {
    List<Element> parts = children(resources);
    if (parts.size() != 1 || !isJsdl(parts.get(0), "TotalCPUCount")) {
      return;
    }
    List<Element> values = children(parts.get(0));
    if (values.size() != 1 || !isJsdl(values.get(0), "Exact") || values.get(0).hasAttributes()) {
      return;
    }
    take(resources);
    take(parts.get(0));
    job.set("processes", takeText(values.get(0)).strip().replaceAll("\\.0+$", ""));
  }

  private void identification(Element id, WizardJob job) {
    take(id);
    boolean project = false;
    for (Element e : children(id)) {
      if (isJsdl(e, "JobName")) {
        job.set("name", takeText(e).strip());
      } else if (isJsdl(e, "Description")) {
        job.set("description", takeText(e));
      } else if (isJsdl(e, "JobProject") && !project) {
        job.set("project", takeText(e).strip());
        project = true;
      }
    }
  }

  private void application(Element application, WizardJob job) {
    take(application);
    List<String> arguments = new ArrayList<>();
    List<String> environment = new ArrayList<>();
    List<String> options = new ArrayList<>();
    for (Element e : children(application)) {
      if (isJsdl(e, "ApplicationName")) {
        job.set("applicationName", takeText(e).strip());
      } else if (isJsdl(e, "ApplicationVersion")) {
        job.set("applicationVersion", takeText(e).strip());
      } else if (isGx(e, "MpirunApplication")
          && e.getAttributes().getLength() == namespaceAttributes(e)) {
        take(e);
        for (Element f : children(e)) {
          String local = f.getLocalName();
          if (!isGx(f, local)) {
            continue;
          }
          if (APPLICATION_FIELDS.containsKey(local)) {
            job.set(APPLICATION_FIELDS.get(local), takeText(f).strip());
          } else if (local.equals("Argument") && oneLine(f)) {
            arguments.add(takeText(f));
          } else if (local.equals("MpirunOption") && oneLine(f)) {
            options.add(takeText(f));
          } else if (local.equals("Environment") && oneLine(f)) {
            environment.add(f.getAttribute("name") + "=" + takeText(f));
          }
        }
      }
    }
    job.set("arguments", String.join("\n", arguments));
    job.set("environment", String.join("\n", environment));
    job.set("mpirunOptions", String.join("\n", options));
  }

  private void stage(Element e, List<WizardStage> stages) {
    Kind kind =
        switch (e.getLocalName()) {
          case "SCPDataStaging" -> Kind.SCP;
          case "SQLQueryDataStaging" -> Kind.SQL_QUERY;
          case "SQLUpdateDataStaging" -> Kind.SQL_UPDATE;
          default -> null;
        };
    if (kind == null || !isGx(e, e.getLocalName())) {
      return;
    }
    take(e);
    WizardStage stage = new WizardStage(kind);
    Map<String, String> fields = kind == Kind.SCP ? SCP_FIELDS : SQL_FIELDS;
    stage.set("dsKind", "named");
    stage.set("authKind", "identity");
    for (Element f : children(e)) {
      if (kind != Kind.SCP && isGx(f, "DataSource")) {
        take(f);
        stage.set("dsKind", "inline");
        for (Element g : children(f)) {
          if (isGx(g, g.getLocalName()) && DATA_SOURCE_FIELDS.containsKey(g.getLocalName())) {
            stage.set(DATA_SOURCE_FIELDS.get(g.getLocalName()), takeText(g).strip());
          }
        }
      } else if (isGx(f, f.getLocalName()) && fields.containsKey(f.getLocalName())) {
        String field = fields.get(f.getLocalName());
        String text = takeText(f);
        stage.set(field, field.equals("statement") ? text : yesNo(text.strip()));
        if (field.equals("password")) {
          stage.set("authKind", "password");
        }
      }
    }
    stages.add(stage);
  }

  /** The schema's true/false spelling of yes/no, as the wizard's lists offer it. */
  private static String yesNo(String value) {
    return switch (value) {
      case "true" -> "yes";
      case "false" -> "no";
      default -> value;
    };
  }

  private void findUnsupported(Element e, String parentPath) {
    String path = parentPath.isEmpty() ? e.getLocalName() : parentPath + "/" + e.getLocalName();
    if (!taken.contains(e)) {
      unsupported.add(path);
      return;
    }
    NamedNodeMap attributes = e.getAttributes();
    for (int i = 0; i < attributes.getLength(); i++) {
      Attr a = (Attr) attributes.item(i);
      boolean known =
          XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(a.getNamespaceURI())
              || (isGx(e, "Environment") && a.getName().equals("name"))
              || (isGx(e, "Parameter") && WizardParameter.FIELDS.contains(a.getName()));
      if (!known) {
        unsupported.add(path + "/@" + a.getName());
      }
    }
    for (Element child : children(e)) {
      findUnsupported(child, path);
    }
  }

  private void take(Element e) {
    taken.add(e);
  }

  private String takeText(Element e) {
    take(e);
    return e.getTextContent();
  }

  private static boolean oneLine(Element e) {
    String text = e.getTextContent();
    return !text.isEmpty() && text.indexOf('\n') < 0 && text.indexOf('\r') < 0;
  }

  private static int namespaceAttributes(Element e) {
    int n = 0;
    for (int i = 0; i < e.getAttributes().getLength(); i++) {
      if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(e.getAttributes().item(i).getNamespaceURI())) {
        n++;
      }
    }
    return n;
  }

  private static boolean isJsdl(Element e, String local) {
    return JsdlNamespaces.isJsdl(e.getNamespaceURI()) && local.equals(e.getLocalName());
  }

  private static boolean isGx(Element e, String local) {
    return JsdlNamespaces.GANTRY.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
  }

  private static List<Element> children(Element e) {
    List<Element> elements = new ArrayList<>();
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element child) {
        elements.add(child);
      }
    }
    return elements;
  }
}
