package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;

import io.gantry.jsdl.HardenedXml;
import io.gantry.jsdl.JobParameter;
import io.gantry.jsdl.JobTemplate;
import io.gantry.jsdl.ParameterType;
import io.gantry.jsdl.ValidationReport;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.Text;

/**
 * Fills a job template: a document that declares {@code gx:Parameters} gets each <code>${name}
 * </code> of a declared parameter replaced by its value, before any other check runs, so that file
 * names, arguments and numbers are checked exactly as if the values had been written there.
 *
 * <ol>
 *   <li>A document without {@code gx:Parameters} is left untouched ({@code $HOME}, <code>${X}
 *       </code> and {@code $$} mean what they always meant); giving it values is an error.
 *   <li>Every value is checked against its parameter's type and written in canonical form; a value
 *       for an undeclared name, a parameter with neither value nor default, and an empty value for
 *       a parameter not declared {@code allowEmpty="true"} are errors naming it.
 *   <li>In text and attributes (outside {@code gx:Parameters}) the value replaces the reference;
 *       <code>$${</code> stands for a literal <code>${</code>; a reference to an undeclared name
 *       stays as written, with a warning.
 *   <li>In {@code SQLStatement} the reference becomes a JDBC {@code ?} marker bound to the value
 *       ({@link SqlTemplateText}); {@code CacheKeyQuery} takes no parameters.
 * </ol>
 */
public final class TemplateFilling {
  private static final String MARKERS_KEY = "io.gantry.jsdl.templateMarkers";
  private static final Pattern REFERENCE =
      Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_.]*)\\}");

  private final Findings findings;
  private final ValidationReport report;
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Set<String> unknown = new LinkedHashSet<>();

  /** The parameters declared with {@code allowEmpty="true"}. */
  private final Set<String> emptyAllowed = new LinkedHashSet<>();

  private TemplateFilling(ValidationReport report) {
    this.report = report;
    this.findings = new Findings(report);
  }

  /**
   * Fills {@code document} in place with {@code given} values.
   *
   * @return the template, or empty when the document declares no parameters (it is then untouched)
   *     or when the report got an error (the document must not be used)
   */
  public static Optional<JobTemplate> fill(
      Document document, Map<String, String> given, ValidationReport report) {
    return new TemplateFilling(report).run(document, given);
  }

  /** How many of the statement's {@code ?} markers are filled parameters, not input columns. */
  static int parameterMarkers(Element statement) {
    Object n = statement == null ? null : statement.getUserData(MARKERS_KEY);
    return n instanceof Integer i ? i : 0;
  }

  private Optional<JobTemplate> run(Document document, Map<String, String> given) {
    Element root = document.getDocumentElement();
    Element description = Dom.child(root, JSDL, "JobDescription");
    Element parameters = Dom.child(description, GANTRY, "Parameters");
    if (parameters == null) {
      if (!given.isEmpty()) {
        report.error(
            0,
            0,
            "",
            "parameter value(s) given for "
                + String.join(", ", given.keySet())
                + ", but this job description declares no parameters (gx:Parameters)");
      }
      return Optional.empty();
    }
    String source = serialise(document);
    List<JobParameter> declared = declared(parameters);
    resolve(declared, given, parameters);
    if (report.hasErrors()) {
      return Optional.empty();
    }
    root.normalize();
    substitute(root, parameters);
    List<SortedMap<Integer, String>> queries =
        sql(Dom.child(description, GANTRY, "PreDataStaging"), "SQLQueryDataStaging");
    List<SortedMap<Integer, String>> updates =
        sql(Dom.child(description, GANTRY, "PostDataStaging"), "SQLUpdateDataStaging");
    if (!unknown.isEmpty()) {
      findings.warning(
          parameters,
          "${"
              + String.join("}, ${", unknown)
              + "} names no declared parameter and is kept as written; declare it, or write $${ to"
              + " keep a literal ${ without this warning");
    }
    if (report.hasErrors()) {
      return Optional.empty();
    }
    return Optional.of(
        new JobTemplate(
            source,
            List.copyOf(declared),
            java.util.Collections.unmodifiableMap(values),
            queries,
            updates));
  }

  private List<JobParameter> declared(Element parameters) {
    List<JobParameter> declared = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (Element p : Dom.children(parameters, GANTRY, "Parameter")) {
      String name = p.getAttribute("name").strip();
      ParameterType type = ParameterType.named(p.getAttribute("type"));
      if (!JobParameter.validName(name)) {
        findings.error(p, "parameter name '" + name + "' " + JobParameter.NAME_RULE);
        continue;
      }
      if (!names.add(name)) {
        findings.error(p, "parameter " + name + " is declared twice");
        continue;
      }
      if (type == null) {
        findings.error(
            p,
            "parameter "
                + name
                + " has the unknown type '"
                + p.getAttribute("type")
                + "'; use string, date, integer, decimal or boolean");
        continue;
      }
      if (Boolean.parseBoolean(p.getAttribute("allowEmpty").strip())
          || "1".equals(p.getAttribute("allowEmpty").strip())) {
        emptyAllowed.add(name);
      }
      Optional<String> defaultValue = Optional.empty();
      if (p.hasAttribute("default")) {
        defaultValue =
            Optional.ofNullable(checked(p, name, type, p.getAttribute("default"), "its default"));
      }
      Optional<String> text =
          p.hasAttribute("description")
              ? Optional.of(p.getAttribute("description"))
              : Optional.empty();
      declared.add(new JobParameter(name, type, defaultValue, text));
    }
    return declared;
  }

  private void resolve(List<JobParameter> declared, Map<String, String> given, Element at) {
    Set<String> names = new LinkedHashSet<>();
    declared.forEach(p -> names.add(p.name()));
    for (String name : given.keySet()) {
      if (!names.contains(name)) {
        findings.error(
            at,
            "parameter "
                + name
                + " is given a value but is not declared; this job declares "
                + (names.isEmpty() ? "none" : String.join(", ", names)));
      }
    }
    for (JobParameter p : declared) {
      String value = given.get(p.name());
      if (value == null) {
        if (p.defaultValue().isEmpty()) {
          findings.error(
              at,
              "parameter "
                  + p.name()
                  + " has no value and no default; give it one (gantry submit --set "
                  + p.name()
                  + "=VALUE, the wizard's field, or submitJob's parameter)");
          continue;
        }
        values.put(p.name(), p.defaultValue().get());
      } else if (value.isBlank() && !emptyAllowed.contains(p.name())) {
        findings.error(
            at,
            "parameter "
                + p.name()
                + " is given an empty value; give it one (gantry submit --set "
                + p.name()
                + "=VALUE), or leave it out to use its default; a template that means an empty"
                + " value declares the parameter with allowEmpty=\"true\"");
      } else {
        String canonical = checked(at, p.name(), p.type(), value, "the value given");
        if (canonical != null) {
          values.put(p.name(), canonical);
        }
      }
    }
  }

  private String checked(Element at, String name, ParameterType type, String value, String what) {
    try {
      return type.canonical(value);
    } catch (IllegalArgumentException e) {
      findings.error(
          at, "parameter " + name + " (" + type.xmlName() + "): " + what + " " + e.getMessage());
      return null;
    }
  }

  /** Text and attributes everywhere but the declarations and the SQL (filled by {@link #sql}). */
  private void substitute(Element element, Element parameters) {
    if (element == parameters || isSql(element)) {
      return;
    }
    NamedNodeMap attributes = element.getAttributes();
    for (int i = 0; i < attributes.getLength(); i++) {
      Attr a = (Attr) attributes.item(i);
      if (!"http://www.w3.org/2000/xmlns/".equals(a.getNamespaceURI())) {
        a.setValue(text(a.getValue()));
      }
    }
    for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Text t) {
        t.setData(text(t.getData()));
      } else if (n instanceof Element child) {
        substitute(child, parameters);
      }
    }
  }

  private static boolean isSql(Element e) {
    return GANTRY.equals(e.getNamespaceURI())
        && ("SQLStatement".equals(e.getLocalName()) || "CacheKeyQuery".equals(e.getLocalName()));
  }

  private String text(String text) {
    if (text.indexOf('$') < 0) {
      return text;
    }
    Matcher m = REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) == null) {
        replacement = "${"; // $${ escapes
      } else if (values.containsKey(m.group(1))) {
        replacement = values.get(m.group(1));
      } else {
        unknown.add(m.group(1));
        replacement = m.group();
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The statements of one staging list, in document order: each one's bound values. */
  private List<SortedMap<Integer, String>> sql(Element staging, String kind) {
    List<SortedMap<Integer, String>> bound = new ArrayList<>();
    for (Element step : Dom.children(staging, GANTRY, kind)) {
      Element statement = Dom.child(step, GANTRY, "SQLStatement");
      SortedMap<Integer, String> markers = new TreeMap<>();
      if (statement != null) {
        SqlTemplateText.Filled filled = SqlTemplateText.fill(statement.getTextContent(), values);
        statement.setTextContent(filled.text());
        statement.setUserData(MARKERS_KEY, filled.values().size(), null);
        markers.putAll(filled.values());
        quoted(statement, filled);
      }
      Element keyQuery = Dom.child(step, GANTRY, "CacheKeyQuery");
      if (keyQuery != null) {
        SqlTemplateText.Filled filled = SqlTemplateText.fill(keyQuery.getTextContent(), Map.of());
        unknown.addAll(filled.unknown());
        if (filled.unknown().stream().anyMatch(values::containsKey)) {
          findings.error(
              keyQuery,
              "CacheKeyQuery runs without parameters; it cannot use ${"
                  + String.join("}, ${", filled.unknown())
                  + "}");
        }
        unknown.removeAll(values.keySet());
        keyQuery.setTextContent(filled.text());
      }
      bound.add(markers);
    }
    return bound;
  }

  private void quoted(Element statement, SqlTemplateText.Filled filled) {
    unknown.addAll(filled.unknown());
    for (String name : filled.quoted()) {
      findings.error(
          statement,
          "${"
              + name
              + "} stands inside quotes; write it without them (e.g. portfolio_id = ${"
              + name
              + "}): a parameter is bound as a JDBC parameter, never spliced into the SQL text");
    }
  }

  private static String serialise(Document document) {
    try {
      Transformer identity = HardenedXml.transformerFactory().newTransformer();
      identity.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      identity.setOutputProperty(OutputKeys.INDENT, "no");
      StringWriter out = new StringWriter();
      identity.transform(new DOMSource(document), new StreamResult(out));
      return out.toString();
    } catch (TransformerException e) {
      throw new IllegalStateException("a parsed document could not be written back", e);
    }
  }
}
