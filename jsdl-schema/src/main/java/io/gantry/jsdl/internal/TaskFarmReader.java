package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;
import static io.gantry.jsdl.JsdlNamespaces.POSIX;
import static io.gantry.jsdl.farm.SweepNamespaces.FUNCTIONS;
import static io.gantry.jsdl.farm.SweepNamespaces.SWEEP;

import io.gantry.jsdl.ParserOptions;
import io.gantry.jsdl.ReservedEnvironment;
import io.gantry.jsdl.ValidationReport;
import io.gantry.jsdl.farm.ParameterSweep;
import io.gantry.jsdl.farm.SweepAssignment;
import io.gantry.jsdl.farm.SweepTarget;
import io.gantry.jsdl.farm.TaskFarmSpec;
import io.gantry.jsdl.farm.TaskFile;
import io.gantry.jsdl.farm.TaskTemplate;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.namespace.NamespaceContext;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import javax.xml.xpath.XPathFactoryConfigurationException;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Reads a task farm from a job description: the GFD.149 {@code sweep:Sweep} in JobDefinition and/or
 * Gantry's {@code gx:TaskFarm} in JobDescription. Counts the tasks and refuses impossible farms (no
 * tasks, more than the limit, a DocumentNode matching nothing or something a task cannot vary,
 * assignments of unequal length) at the element, with its line and column.
 *
 * <ol>
 *   <li>The application every task runs is the job's POSIXApplication: its Executable, Arguments
 *       and Environments are the template a sweep writes values into.
 *   <li>Each DocumentNode's Match is an XPath 1.0 expression over this document; its prefixes come
 *       from the DocumentNode's NamespaceBindings, then from the namespaces in scope at Match. It
 *       must select the POSIXApplication's Executable, Argument or Environment elements (or their
 *       text): the rest of the description is the job, not a task.
 *   <li>A sweep's Assignments advance together; a nested Sweep runs whole for every step of its
 *       parent (cross product).
 * </ol>
 */
public final class TaskFarmReader {
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,199}");

  private final Findings findings;
  private final ParserOptions options;
  private int assignmentCount;

  private TaskFarmReader(ValidationReport report, ParserOptions options) {
    this.findings = new Findings(report);
    this.options = options;
  }

  /** The farm the document describes, or null when it has none or has errors (in the report). */
  public static TaskFarmSpec read(
      Document document, ParserOptions options, ValidationReport report) {
    return new TaskFarmReader(report, options).read(document.getDocumentElement());
  }

  private TaskFarmSpec read(Element root) {
    List<Element> sweeps = Dom.children(root, SWEEP, "Sweep");
    Element description = Dom.child(root, JSDL, "JobDescription");
    Element farm = Dom.child(description, GANTRY, "TaskFarm");
    if (sweeps.isEmpty() && farm == null) {
      return null;
    }
    Element anchor = farm != null ? farm : sweeps.get(0);
    if (sweeps.size() > 1) {
      findings.error(sweeps.get(1), "a job has at most one top-level Sweep; nest the others in it");
      return null;
    }
    Element posix =
        Dom.child(Dom.child(description, JSDL, "Application"), POSIX, "POSIXApplication");
    if (posix == null) {
      findings.error(
          anchor,
          "a task farm runs its tasks from a POSIXApplication (Executable, Argument, Environment);"
              + " this job has none");
      return null;
    }
    TaskTemplate template = template(posix);
    Element fromFile = Dom.child(farm, GANTRY, "TasksFromFile");
    if (!sweeps.isEmpty() && fromFile != null) {
      findings.error(
          fromFile, "a farm takes its tasks from a Sweep or from TasksFromFile, not both");
      return null;
    }
    if (sweeps.isEmpty() && fromFile == null) {
      findings.error(
          farm, "a TaskFarm needs tasks: a sweep:Sweep in JobDefinition or gx:TasksFromFile");
      return null;
    }
    ParameterSweep sweep = sweeps.isEmpty() ? null : sweep(sweeps.get(0), posix);
    TaskFile file = fromFile == null ? null : taskFile(fromFile);
    if (sweep != null) {
      long count = sweep.taskCount();
      if (count > options.maxFarmTasks()) {
        findings.error(
            sweeps.get(0),
            "the sweep makes "
                + (count == Long.MAX_VALUE ? "more than 2^63" : count)
                + " tasks, over this server's limit of "
                + options.maxFarmTasks()
                + " tasks per farm");
        return null;
      }
      if (count < 1) {
        findings.error(sweeps.get(0), "the sweep makes no task");
        return null;
      }
    }
    Settings s = settings(farm);
    if (s == null || (sweep == null && file == null)) {
      return null;
    }
    return new TaskFarmSpec(
        template,
        sweep,
        file,
        s.launchers,
        s.priority,
        s.retries,
        s.wallTime,
        s.outputBytes,
        s.resultFile);
  }

  private static TaskTemplate template(Element posix) {
    String executable = Dom.text(Dom.child(posix, POSIX, "Executable"));
    List<String> arguments = new ArrayList<>();
    for (Element a : Dom.children(posix, POSIX, "Argument")) {
      arguments.add(a.getTextContent().strip());
    }
    List<Map.Entry<String, String>> env = new ArrayList<>();
    for (Element e : Dom.children(posix, POSIX, "Environment")) {
      env.add(new AbstractMap.SimpleImmutableEntry<>(e.getAttribute("name"), e.getTextContent()));
    }
    return new TaskTemplate(executable == null ? "" : executable, arguments, env);
  }

  // ---- the sweep -----------------------------------------------------------------------------

  private ParameterSweep sweep(Element sweep, Element posix) {
    List<SweepAssignment> assignments = new ArrayList<>();
    List<ParameterSweep> nested = new ArrayList<>();
    boolean ok = true;
    for (Element child : Dom.children(sweep)) {
      if (Dom.is(child, SWEEP, "Assignment")) {
        SweepAssignment a = assignment(child, posix);
        ok &= a != null;
        if (a != null) {
          assignments.add(a);
        }
      } else if (Dom.is(child, SWEEP, "Sweep")) {
        ParameterSweep n = sweep(child, posix);
        ok &= n != null;
        if (n != null) {
          nested.add(n);
        }
      } else {
        findings.error(
            child, "a Sweep holds Assignment and Sweep elements only, not " + child.getLocalName());
        ok = false;
      }
    }
    if (!ok) {
      return null;
    }
    if (assignments.isEmpty()) {
      findings.error(sweep, "a Sweep needs at least one Assignment");
      return null;
    }
    int steps = assignments.get(0).values().size();
    for (SweepAssignment a : assignments) {
      if (a.values().size() != steps) {
        findings.error(
            sweep,
            "the Assignments of one Sweep advance together and must have as many values: "
                + steps
                + " and "
                + a.values().size());
        return null;
      }
    }
    return new ParameterSweep(assignments, nested);
  }

  private SweepAssignment assignment(Element assignment, Element posix) {
    List<SweepTarget> targets = new ArrayList<>();
    List<String> values = null;
    boolean ok = true;
    int functions = 0;
    for (Element child : Dom.children(assignment)) {
      if (Dom.is(child, SWEEP, "DocumentNode")) {
        List<SweepTarget> t = documentNode(child, posix);
        ok &= t != null;
        if (t != null) {
          targets.addAll(t);
        }
      } else if (Dom.is(child, FUNCTIONS, "Values")) {
        functions++;
        values = values(child);
      } else if (Dom.is(child, FUNCTIONS, "LoopInteger")) {
        functions++;
        values = loopInteger(child);
      } else {
        findings.error(
            child,
            "an Assignment holds DocumentNode elements and one function (sweepfunc:Values or"
                + " sweepfunc:LoopInteger), not "
                + child.getLocalName());
        ok = false;
      }
    }
    if (!ok) {
      return null;
    }
    if (targets.isEmpty()) {
      findings.error(assignment, "an Assignment needs at least one DocumentNode");
      return null;
    }
    if (functions != 1 || values == null) {
      if (functions != 1) {
        findings.error(
            assignment, "an Assignment needs exactly one function (Values or LoopInteger)");
      }
      return null;
    }
    if (values.isEmpty()) {
      findings.error(assignment, "the Assignment's function gives no value: the farm has no task");
      return null;
    }
    assignmentCount++;
    return new SweepAssignment(targets, values, "sweep_" + assignmentCount);
  }

  private List<String> values(Element function) {
    List<String> values = new ArrayList<>();
    for (Element v : Dom.children(function)) {
      if (!Dom.is(v, FUNCTIONS, "Value")) {
        findings.error(v, "Values holds Value elements only");
        return null;
      }
      values.add(v.getTextContent());
      if (values.size() > options.maxFarmTasks()) {
        findings.error(
            function,
            "more values than this server's limit of " + options.maxFarmTasks() + " tasks");
        return null;
      }
    }
    return values;
  }

  private List<String> loopInteger(Element loop) {
    Long start = integer(loop, "start", null);
    Long end = integer(loop, "end", null);
    Long step = integer(loop, "step", 1L);
    if (start == null || end == null || step == null) {
      return null;
    }
    if (step == 0 || (end - start) / step < 0) {
      findings.error(
          loop,
          "LoopInteger from "
              + start
              + " to "
              + end
              + " by "
              + step
              + " never reaches its end"
              + (step == 0 ? " (step 0)" : "")
              + "; it would make no task or never stop");
      return null;
    }
    long count = Math.abs((end - start) / step) + 1;
    if (count > options.maxFarmTasks()) {
      findings.error(
          loop,
          "LoopInteger makes "
              + count
              + " values, over this server's limit of "
              + options.maxFarmTasks()
              + " tasks per farm");
      return null;
    }
    java.util.Set<Long> except = new java.util.HashSet<>();
    for (Element e : Dom.children(loop)) {
      Long x = Dom.is(e, FUNCTIONS, "Exception") ? Dom.number(e) : null;
      if (x == null) {
        findings.error(e, "LoopInteger holds Exception elements with whole numbers only");
        return null;
      }
      except.add(x);
    }
    List<String> values = new ArrayList<>((int) count);
    for (long i = 0, v = start; i < count; i++, v += step) {
      if (!except.contains(v)) {
        values.add(Long.toString(v));
      }
    }
    return values;
  }

  private Long integer(Element e, String attribute, Long fallback) {
    if (!e.hasAttribute(attribute)) {
      if (fallback == null) {
        findings.error(e, e.getLocalName() + " needs the attribute " + attribute);
      }
      return fallback;
    }
    try {
      return Long.parseLong(e.getAttribute(attribute).strip());
    } catch (NumberFormatException x) {
      findings.error(
          e,
          "attribute "
              + attribute
              + " must be a whole number, not '"
              + e.getAttribute(attribute)
              + "'");
      return null;
    }
  }

  /** The template places a DocumentNode selects; null (with the error) when it cannot be swept. */
  private List<SweepTarget> documentNode(Element node, Element posix) {
    Element match = Dom.child(node, SWEEP, "Match");
    String expression = Dom.text(match);
    if (expression == null || expression.isEmpty()) {
      findings.error(node, "a DocumentNode needs a Match (an XPath expression)");
      return null;
    }
    Map<String, String> bindings = new HashMap<>();
    for (Element b : Dom.children(node, SWEEP, "NamespaceBinding")) {
      bindings.put(b.getAttribute("prefix"), b.getAttribute("ns"));
    }
    NodeList found;
    try {
      XPath xpath = xpathFactory().newXPath();
      xpath.setNamespaceContext(context(bindings, match));
      found =
          (NodeList) xpath.evaluate(expression, node.getOwnerDocument(), XPathConstants.NODESET);
    } catch (XPathExpressionException e) {
      findings.error(match, "Match is not an XPath 1.0 node-set expression: " + cause(e));
      return null;
    }
    if (found.getLength() == 0) {
      findings.error(match, "Match '" + expression + "' selects nothing in this job description");
      return null;
    }
    List<SweepTarget> targets = new ArrayList<>();
    for (int i = 0; i < found.getLength(); i++) {
      SweepTarget t = target(found.item(i), posix);
      if (t == null) {
        findings.error(
            match,
            "Match '"
                + expression
                + "' selects "
                + describe(found.item(i))
                + "; a sweep may vary only the POSIXApplication's Executable, Argument and"
                + " Environment elements (the rest describes the whole job)");
        return null;
      }
      targets.add(t);
    }
    return targets;
  }

  private static SweepTarget target(Node n, Element posix) {
    if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
      n = n.getParentNode();
    }
    if (!(n instanceof Element e) || e.getParentNode() != posix) {
      return null;
    }
    if (Dom.is(e, POSIX, "Executable")) {
      return new SweepTarget(SweepTarget.Kind.EXECUTABLE, 0);
    }
    for (String name : List.of("Argument", "Environment")) {
      if (Dom.is(e, POSIX, name)) {
        int index = Dom.children(posix, POSIX, name).indexOf(e);
        return new SweepTarget(
            name.equals("Argument") ? SweepTarget.Kind.ARGUMENT : SweepTarget.Kind.ENVIRONMENT,
            index);
      }
    }
    return null;
  }

  private static String describe(Node n) {
    if (n instanceof Attr a) {
      return "the attribute " + a.getName();
    }
    if (n instanceof Element e) {
      SourcePosition at = SourcePosition.of(e);
      return e.getLocalName() + (at.line() > 0 ? " (line " + at.line() + ")" : "");
    }
    return "a " + n.getNodeName() + " node";
  }

  private static NamespaceContext context(Map<String, String> bindings, Element match) {
    return new NamespaceContext() {
      @Override
      public String getNamespaceURI(String prefix) {
        String ns = bindings.get(prefix);
        if (ns == null) {
          ns = match.lookupNamespaceURI(prefix.isEmpty() ? null : prefix);
        }
        return ns == null ? XMLConstants.NULL_NS_URI : ns;
      }

      @Override
      public String getPrefix(String namespaceUri) {
        return null;
      }

      @Override
      public java.util.Iterator<String> getPrefixes(String namespaceUri) {
        return java.util.Collections.emptyIterator();
      }
    };
  }

  private static XPathFactory xpathFactory() {
    XPathFactory f = XPathFactory.newDefaultInstance(); // no classpath search per call
    try {
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true); // no extension functions
    } catch (XPathFactoryConfigurationException e) {
      throw new IllegalStateException("the XPath implementation refuses secure processing", e);
    }
    return f;
  }

  private static String cause(Exception e) {
    Throwable c = e;
    while (c.getCause() != null && c.getMessage() == null) {
      c = c.getCause();
    }
    return String.valueOf(c.getMessage() != null ? c.getMessage() : c.getCause());
  }

  // ---- TaskFarm and TasksFromFile ------------------------------------------------------------

  private static final class Settings {
    int launchers;
    TaskFarmSpec.Priority priority = TaskFarmSpec.Priority.NORMAL;
    int retries = 2;
    long wallTime;
    int outputBytes = 4096;
    String resultFile = TaskFarmSpec.DEFAULT_RESULT_FILE;
  }

  private Settings settings(Element farm) {
    Settings s = new Settings();
    if (farm == null) {
      return s;
    }
    boolean ok = true;
    Element launchers = Dom.child(farm, GANTRY, "Launchers");
    Long n = Dom.number(launchers);
    if (n != null) {
      ok &= within(launchers, n, 1, 100_000);
      s.launchers = n.intValue();
    }
    String priority = Dom.text(Dom.child(farm, GANTRY, "Priority"));
    if ("high".equals(priority)) {
      s.priority = TaskFarmSpec.Priority.HIGH;
    }
    Element retries = Dom.child(farm, GANTRY, "RetriesPerTask");
    n = Dom.number(retries);
    if (n != null) {
      ok &= within(retries, n, 0, 100);
      s.retries = n.intValue();
    }
    Element wall = Dom.child(farm, GANTRY, "TaskWallTime");
    n = Dom.number(wall);
    if (n != null) {
      ok &= within(wall, n, 1, options.maxWallTimeSeconds());
      s.wallTime = n;
    }
    Element bytes = Dom.child(farm, GANTRY, "OutputBytes");
    n = Dom.number(bytes);
    if (n != null) {
      ok &= within(bytes, n, 0, 65536);
      s.outputBytes = n.intValue();
    }
    Element result = Dom.child(farm, GANTRY, "ResultFileName");
    String name = Dom.text(result);
    if (name != null) {
      if (!PLAIN_NAME.matcher(name).matches()) {
        findings.error(
            result,
            "ResultFileName must be a plain file name in the job directory (letters, digits, '.',"
                + " '_', '-'), not '"
                + name
                + "'");
        ok = false;
      }
      s.resultFile = name;
    }
    return ok ? s : null;
  }

  private boolean within(Element e, long value, long least, long most) {
    if (value < least || value > most) {
      findings.error(e, "must be from " + least + " to " + most + ", not " + value);
      return false;
    }
    return true;
  }

  private TaskFile taskFile(Element fromFile) {
    Element nameElement = Dom.child(fromFile, GANTRY, "FileName");
    String name = Dom.text(nameElement);
    if (name == null
        || name.startsWith("/")
        || java.util.Arrays.asList(name.split("/")).contains("..")) {
      findings.error(
          nameElement == null ? fromFile : nameElement,
          "FileName must be a relative path inside the job directory");
      return null;
    }
    List<TaskFile.Binding> bindings = new ArrayList<>();
    boolean ok = true;
    for (Element b : Dom.children(fromFile)) {
      if (Dom.is(b, GANTRY, "Argument")) {
        bindings.add(new TaskFile.Binding(b.getAttribute("column").strip(), null));
      } else if (Dom.is(b, GANTRY, "Environment")) {
        String variable = b.getAttribute("name");
        java.util.Optional<String> problem = ReservedEnvironment.problem(variable);
        if (problem.isPresent()) {
          findings.error(b, problem.get());
          ok = false;
        }
        bindings.add(new TaskFile.Binding(b.getAttribute("column").strip(), variable));
      }
    }
    String priorityColumn = Dom.text(Dom.child(fromFile, GANTRY, "PriorityColumn"));
    return ok ? new TaskFile(name, bindings, priorityColumn) : null;
  }
}
