package io.gantry.web;

import io.gantry.server.api.Problem;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the server's validation report next to the wizard's fields. A problem's element path ({@code
 * JobDefinition/JobDescription/PreDataStaging/SQLQueryDataStaging[2]/SQLStatement}) names the stage
 * by its kind and its 1-based index among the stages of that kind (no index when it is the only
 * one), which is how the composer wrote them; the last named element gives the field. A problem
 * with the stage or application as a whole is kept for the stage or step, and one with the document
 * as a whole is shown on the review only. A job template's problems go to its declarations, or next
 * to the value field of the parameter they name ({@link #parameterProblem}).
 */
final class WizardProblems {
  private static final Map<String, String> JOB_FIELDS =
      Map.ofEntries(
          Map.entry("JobName", "name"),
          Map.entry("JobProject", "project"),
          Map.entry("ApplicationName", "applicationName"),
          Map.entry("ApplicationVersion", "applicationVersion"),
          Map.entry("Executable", "executable"),
          Map.entry("WorkingDirectory", "workingDirectory"),
          Map.entry("Argument", "arguments"),
          Map.entry("Environment", "environment"),
          Map.entry("NumberOfProcesses", "processes"),
          Map.entry("HostFile", "hostFile"),
          Map.entry("Partition", "partition"),
          Map.entry("Verbosity", "verbosity"),
          Map.entry("MpirunOption", "mpirunOptions"),
          Map.entry("WallTimeLimit", "wallTime"),
          Map.entry("Queue", "queue"),
          Map.entry("StdoutFileName", "stdout"),
          Map.entry("StderrFileName", "stderr"));
  private static final Map<String, String> STAGE_FIELDS =
      Map.ofEntries(
          Map.entry("DataSourceRef", "dataSourceRef"),
          Map.entry("JDBCURL", "jdbcUrl"),
          Map.entry("UserId", "dbUser"),
          Map.entry("Password", "dbPassword"),
          Map.entry("ExecutionOrderGroup", "group"),
          Map.entry("SQLStatement", "statement"),
          Map.entry("SQLOutputFileName", "outputFile"),
          Map.entry("SQLInputFileName", "inputFile"),
          Map.entry("SQLOutputFileCreationFlag", "creationFlag"),
          Map.entry("SQLInputFileCompression", "inputCompression"),
          Map.entry("SQLOutputFileCompression", "outputCompression"),
          Map.entry("BatchSize", "batchSize"),
          Map.entry("CacheValidity", "cacheValidity"),
          Map.entry("CacheKeyQuery", "cacheKeyQuery"),
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
          Map.entry("DataSource", "dsKind"));

  /** The parser's words for a problem with one parameter's value, naming the parameter. */
  private static final Pattern VALUE_PROBLEM =
      Pattern.compile("^parameter ([A-Za-z_][A-Za-z0-9_]*) (has no value|\\([a-z]+\\): the value)");

  private WizardProblems() {}

  /** Replaces the server problems held in the job with this report's. */
  static void place(WizardJob job, List<Problem> problems) {
    job.serverProblems().clear();
    job.getPre().forEach(s -> s.serverProblems().clear());
    job.getPost().forEach(s -> s.serverProblems().clear());
    job.getParameters().forEach(p -> p.serverProblems().clear());
    job.valueProblems().clear();
    for (Problem p : problems) {
      String message = ("WARNING".equals(p.severity) ? "Warning: " : "") + p.message;
      place(job, p.path == null ? "" : p.path, message);
    }
  }

  private static void place(WizardJob job, String path, String message) {
    String[] steps = path.split("/");
    for (int i = 0; i < steps.length; i++) {
      String name = bare(steps[i]);
      if (name.equals("Parameters") && i >= 1 && bare(steps[i - 1]).equals("JobDescription")) {
        parameterProblem(job, steps, i, message);
        return;
      }
      if ((name.equals("PreDataStaging") || name.equals("PostDataStaging"))) {
        boolean pre = name.equals("PreDataStaging");
        WizardStep step = pre ? WizardStep.PRE_STAGING : WizardStep.POST_STAGING;
        if (i + 1 >= steps.length) {
          add(job.serverProblems(), step.generalKey(), message);
          return;
        }
        WizardStage stage = stage(job.stages(pre), bare(steps[i + 1]), index(steps[i + 1]));
        if (stage == null) {
          add(job.serverProblems(), step.generalKey(), message);
          return;
        }
        String field = "_stage";
        for (int j = steps.length - 1; j > i + 1; j--) {
          if (STAGE_FIELDS.containsKey(bare(steps[j]))) {
            field = STAGE_FIELDS.get(bare(steps[j]));
            break;
          }
        }
        add(stage.serverProblems(), field, message);
        return;
      }
    }
    add(job.serverProblems(), jobField(steps), message);
  }

  /**
   * A problem with a declaration ({@code Parameters/Parameter[2]}) goes to its field in the
   * parameters step; one the parser reports on {@code Parameters} about a value ("parameter NAME
   * has no value and no default", "... the value given ...") goes next to NAME's value field on the
   * review; anything else (a reference to an undeclared name) to the parameters step as a whole.
   */
  private static void parameterProblem(WizardJob job, String[] steps, int at, String message) {
    if (at + 1 < steps.length && bare(steps[at + 1]).equals("Parameter")) {
      int index = index(steps[at + 1]) - 1;
      if (index >= 0 && index < job.getParameters().size()) {
        String field =
            message.contains("its default")
                ? "default"
                : message.contains("unknown type") || message.contains("'type'") ? "type" : "name";
        add(job.getParameters().get(index).serverProblems(), field, message);
        return;
      }
    }
    Matcher named = VALUE_PROBLEM.matcher(message);
    if (named.find()
        && job.getDeclared().stream().anyMatch(p -> p.getName().equals(named.group(1)))) {
      add(job.valueProblems(), named.group(1), message);
      return;
    }
    add(job.serverProblems(), WizardStep.PARAMETERS.generalKey(), message);
  }

  private static String jobField(String[] steps) {
    String last = steps.length == 0 ? "" : bare(steps[steps.length - 1]);
    if (JOB_FIELDS.containsKey(last)) {
      return JOB_FIELDS.get(last);
    }
    if (last.equals("Description")
        && steps.length > 1
        && bare(steps[steps.length - 2]).equals("JobIdentification")) {
      return "description";
    }
    if (last.equals("JobIdentification")) {
      return WizardStep.IDENTIFICATION.generalKey();
    }
    if (last.equals("MpirunApplication") || last.equals("Application")) {
      return WizardStep.APPLICATION.generalKey();
    }
    return "_document";
  }

  private static WizardStage stage(List<WizardStage> stages, String element, int index) {
    int seen = 0;
    for (WizardStage stage : stages) {
      if (stage.kind().element.equals(element) && ++seen == index) {
        return stage;
      }
    }
    return null;
  }

  private static String bare(String step) {
    int bracket = step.indexOf('[');
    String name = bracket < 0 ? step : step.substring(0, bracket);
    int colon = name.indexOf(':');
    return colon < 0 ? name : name.substring(colon + 1);
  }

  private static int index(String step) {
    int bracket = step.indexOf('[');
    if (bracket < 0 || !step.endsWith("]")) {
      return 1;
    }
    try {
      return Integer.parseInt(step.substring(bracket + 1, step.length() - 1));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static void add(Map<String, String> problems, String field, String message) {
    problems.merge(field, message, (a, b) -> a + " " + b);
  }
}
