package io.gantry.jsdl.internal;

import static io.gantry.jsdl.JsdlNamespaces.GANTRY;
import static io.gantry.jsdl.JsdlNamespaces.HPCPA;
import static io.gantry.jsdl.JsdlNamespaces.JSDL;
import static io.gantry.jsdl.JsdlNamespaces.POSIX;
import static io.gantry.jsdl.JsdlNamespaces.SPMD;

import io.gantry.jsdl.JsdlNamespaces;
import io.gantry.jsdl.StagingCredential;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * Checks on the document's shape that JSDL's lax wildcards let through: each extension in the place
 * it belongs, at most one application kind, foreign extensions reported as warnings.
 */
final class StructureChecks {
  /**
   * Also a child of SCPDataStaging and SQLQueryDataStaging (Gantry's own elements, where the schema
   * places it); only as an extension element of a JSDL element must that element be DataStaging.
   */
  private static final String CACHE_VALIDITY = "{" + GANTRY + "}CacheValidity";

  /** Where each extension element that may sit in a JSDL wildcard belongs: its parent. */
  private static final Map<String, String> HOME =
      Map.ofEntries(
          Map.entry("{" + GANTRY + "}MpirunApplication", "Application"),
          Map.entry("{" + GANTRY + "}Notify", "JobDescription"),
          Map.entry("{" + GANTRY + "}PreDataStaging", "JobDescription"),
          Map.entry("{" + GANTRY + "}PostDataStaging", "JobDescription"),
          Map.entry("{" + GANTRY + "}Dependencies", "JobDescription"),
          Map.entry("{" + GANTRY + "}Queue", "JobDescription"),
          Map.entry("{" + GANTRY + "}TaskFarm", "JobDescription"),
          Map.entry("{" + GANTRY + "}Parameters", "JobDescription"),
          Map.entry(CACHE_VALIDITY, "DataStaging"),
          Map.entry("{" + GANTRY + "}Stream", "DataStaging"),
          Map.entry("{" + POSIX + "}POSIXApplication", "Application"),
          Map.entry("{" + SPMD + "}SPMDApplication", "Application"),
          Map.entry("{" + HPCPA + "}HPCProfileApplication", "Application"));

  private final Findings findings;

  StructureChecks(Findings findings) {
    this.findings = findings;
  }

  void check(Element root) {
    visit(root);
    Element description = Dom.child(root, JSDL, "JobDescription");
    if (description != null) {
      onlyOne(description, "PreDataStaging", "stage-in steps");
      onlyOne(description, "PostDataStaging", "stage-out steps");
      onlyOne(description, "Dependencies", "After, AfterAny, AfterStart and Hold elements");
      onlyOne(description, "Parameters", "Parameter elements");
      for (Element extra : Dom.children(description, GANTRY, "Queue").stream().skip(1).toList()) {
        findings.error(extra, "only one Queue is allowed: a job waits in one priority class");
      }
      onlyOne(description, "Notify", "Event, Webhook and Mail elements");
      applicationKind(description);
    }
  }

  private void visit(Element element) {
    for (Element child : Dom.children(element)) {
      String namespace = child.getNamespaceURI();
      if (StagingCredential.isCredential(child) && JSDL.equals(element.getNamespaceURI())) {
        continue; // GFD.135's login of a Source or Target: StagingChecks reads it
      }
      if (io.gantry.jsdl.farm.SweepNamespaces.isSweep(namespace)) {
        continue; // GFD.149's Sweep: TaskFarmReader checks it, with the job it varies
      }
      if (!JsdlNamespaces.isKnown(namespace)) {
        findings.warning(
            child,
            "unknown extension element "
                + child.getLocalName()
                + " (namespace "
                + namespace
                + ") is ignored by Gantry");
        continue;
      }
      boolean ownCacheValidity =
          key(child).equals(CACHE_VALIDITY) && GANTRY.equals(element.getNamespaceURI());
      if (!ownCacheValidity
          && (!namespace.equals(element.getNamespaceURI()) || HOME.containsKey(key(child)))) {
        placement(element, child);
      }
      visit(child);
    }
  }

  private void placement(Element parent, Element child) {
    String home = HOME.get(key(child));
    boolean inJsdl = JSDL.equals(parent.getNamespaceURI());
    if (home == null && inJsdl && GANTRY.equals(child.getNamespaceURI())) {
      findings.error(
          child,
          "unknown Gantry element "
              + child.getLocalName()
              + "; in "
              + parent.getLocalName()
              + " Gantry's namespace has only "
              + homesIn(parent.getLocalName()));
    } else if (home == null && inJsdl && !JSDL.equals(child.getNamespaceURI())) {
      findings.error(
          child, child.getLocalName() + " does not belong directly in " + parent.getLocalName());
    } else if (home != null && !(inJsdl && home.equals(parent.getLocalName()))) {
      findings.error(
          child,
          child.getLocalName()
              + " does not belong in "
              + parent.getLocalName()
              + "; it goes inside "
              + home);
    }
  }

  /** The Gantry elements whose place is inside the named JSDL element, in words. */
  private static String homesIn(String parent) {
    List<String> names =
        HOME.entrySet().stream()
            .filter(e -> e.getValue().equals(parent) && e.getKey().startsWith("{" + GANTRY + "}"))
            .map(e -> e.getKey().substring(e.getKey().indexOf('}') + 1))
            .sorted()
            .toList();
    if (names.size() < 2) {
      return names.isEmpty() ? "nothing" : names.get(0);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " and "
        + names.get(names.size() - 1);
  }

  private void onlyOne(Element description, String name, String what) {
    List<Element> found = Dom.children(description, GANTRY, name);
    for (Element extra : found.subList(Math.min(1, found.size()), found.size())) {
      findings.error(extra, "only one " + name + " is allowed; put all " + what + " in the first");
    }
  }

  /**
   * GFD.56 makes Application optional: without one the job only stages data. With one, it is either
   * exactly one kind of application element (run as written; an ApplicationName beside it is a
   * label) or an ApplicationName alone, which the server resolves in its registry.
   */
  private void applicationKind(Element description) {
    Element application = Dom.child(description, JSDL, "Application");
    String kinds = "POSIXApplication, HPCProfileApplication, SPMDApplication or MpirunApplication";
    if (application == null) {
      return;
    }
    List<Element> found =
        Dom.children(application).stream()
            .filter(e -> "Application".equals(HOME.get(key(e))))
            .toList();
    Element name = Dom.child(application, JSDL, "ApplicationName");
    Element version = Dom.child(application, JSDL, "ApplicationVersion");
    if (found.isEmpty() && name == null) {
      findings.error(
          application,
          "no application to run; give an ApplicationName the server offers"
              + " (gantry applications lists them) or exactly one of "
              + kinds
              + ", or leave Application out for a job that only stages data");
    }
    if (found.isEmpty() && name == null && version != null) {
      findings.error(version, "ApplicationVersion without ApplicationName names no application");
    }
    for (Element extra : found.subList(Math.min(1, found.size()), found.size())) {
      findings.error(
          extra,
          "a second application kind ("
              + extra.getLocalName()
              + " after "
              + found.get(0).getLocalName()
              + "); keep exactly one");
    }
  }

  private static String key(Element e) {
    return "{" + e.getNamespaceURI() + "}" + e.getLocalName();
  }
}
