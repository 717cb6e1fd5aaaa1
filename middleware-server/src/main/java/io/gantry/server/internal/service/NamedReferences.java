package io.gantry.server.internal.service;

import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.JsdlNamespaces;
import io.gantry.jsdl.LocatedElement;
import io.gantry.jsdl.ParseResult;
import io.gantry.server.api.Problem;
import io.gantry.server.config.NamedApplication;
import io.gantry.server.config.NearestName;
import io.gantry.server.internal.plan.ApplicationRegistry;
import io.gantry.server.internal.plan.JobPlanner;
import io.gantry.server.internal.scheduler.JobFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * The names in a job that only this server can check (its data sources, its applications), each
 * refusal placed at the element that names it (line:column and path, as the parser places its own
 * problems) with the nearest name the caller may use ({@link NearestName}). The rules stay with
 * their owners ({@link JobPlanner.DataSourceAccess}, {@link ApplicationRegistry}); this only asks
 * them before planning, where the document's positions are still known, instead of the planner's
 * one message for the whole JobDefinition.
 */
final class NamedReferences {
  private NamedReferences() {}

  /** The problems of {@code job}'s named references for {@code owner}; empty when all resolve. */
  static List<Problem> check(ParseResult parsed, JsdlJob job, String owner, JobPlanner planner) {
    List<Problem> problems = new ArrayList<>();
    JobPlanner.DataSourceAccess access = planner.dataSources();
    // the texts first: a document read once finds its positions only by reading it again, which
    // only a reference to report needs
    List<String> refs = parsed.texts(JsdlNamespaces.GANTRY, "DataSourceRef");
    for (int i = 0; i < refs.size(); i++) {
      String problem = access.dataSourceProblem(refs.get(i), owner);
      if (problem != null) {
        LocatedElement ref = parsed.elements(JsdlNamespaces.GANTRY, "DataSourceRef").get(i);
        problems.add(at(ref, problem + suggestion(ref.text(), access.dataSourceNamesFor(owner))));
      }
    }
    if (job.namedApplication().isPresent()) {
      ApplicationRegistry applications = planner.applications();
      String name = job.namedApplication().get();
      try {
        applications.resolve(name, job.applicationVersion(), owner);
      } catch (JobFailure e) {
        List<String> offered =
            applications.offeredTo(owner).stream().map(NamedApplication::name).toList();
        String message =
            offered.contains(name) ? e.getMessage() : e.getMessage() + suggestion(name, offered);
        parsed.elements(JsdlNamespaces.JSDL, "ApplicationName").stream()
            .findFirst()
            .ifPresent(element -> problems.add(at(element, message)));
      }
    }
    return problems;
  }

  private static String suggestion(String given, java.util.Collection<String> known) {
    return NearestName.among(given, known).map(n -> "; did you mean '" + n + "'?").orElse("");
  }

  private static Problem at(LocatedElement element, String message) {
    Problem p = new Problem();
    p.severity = "ERROR";
    p.line = element.line();
    p.column = element.column();
    p.path = element.path();
    p.message = message;
    return p;
  }
}
