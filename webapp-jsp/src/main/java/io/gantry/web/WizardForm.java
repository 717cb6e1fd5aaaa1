package io.gantry.web;

import io.gantry.web.WizardStage.Kind;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Reads a posted wizard step into the job and checks what can be checked field by field at once
 * (numbers, NAME=value lines), so that a wrong entry is shown next to its field without waiting for
 * the server's validation. Everything else (required elements, file names, SQL statements, data
 * sources) is the server's to say, at the review.
 *
 * <p>Stage fields are posted as {@code s<index>.<field>}. A typed password never reaches the job:
 * it goes through the {@code seal} function (encryption with the server's key) at once.
 */
final class WizardForm {
  static final List<String> SQL_QUERY_FIELDS =
      List.of(
          "dsKind",
          "dataSourceRef",
          "jdbcUrl",
          "dbUser",
          "group",
          "statement",
          "inputFile",
          "outputFile",
          "creationFlag",
          "inputCompression",
          "outputCompression",
          "cacheValidity",
          "cacheKeyQuery");
  static final List<String> SQL_UPDATE_FIELDS =
      List.of(
          "dsKind",
          "dataSourceRef",
          "jdbcUrl",
          "dbUser",
          "group",
          "statement",
          "inputFile",
          "inputCompression",
          "batchSize");
  static final List<String> SCP_FIELDS =
      List.of(
          "order",
          "direction",
          "protocol",
          "host",
          "port",
          "user",
          "authKind",
          "identityRef",
          "source",
          "target",
          "compression",
          "cacheValidity");
  private static final java.util.Set<String> MULTILINE =
      java.util.Set.of("description", "arguments", "environment", "mpirunOptions");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

  /**
   * A job template's reference, <code>${name}</code>: what it stands for is known at submission.
   */
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_.]*\\}");

  private static final int MAX_FIELD = 64 * 1024;

  private WizardForm() {}

  static List<String> fieldsOf(Kind kind) {
    return switch (kind) {
      case SQL_QUERY -> SQL_QUERY_FIELDS;
      case SQL_UPDATE -> SQL_UPDATE_FIELDS;
      case SCP -> SCP_FIELDS;
    };
  }

  /** The name of a stage's password field, or null for none. */
  static String secretField(Kind kind) {
    return kind == Kind.SCP ? "password" : "dbPassword";
  }

  /** Reads the job fields of a plain step and checks them. */
  static void readJobFields(WizardStep step, Map<String, String[]> params, WizardJob job) {
    for (String field : step.fields) {
      String value = param(params, field);
      if (value != null) {
        job.set(field, MULTILINE.contains(field) ? value.replace("\r\n", "\n") : value.strip());
      }
      job.fieldErrors().remove(field);
      check(field, job.value(field)).ifPresent(message -> job.fieldErrors().put(field, message));
    }
    if (step == WizardStep.APPLICATION
        && WizardJsdlComposer.isNamedApplication(job)
        && job.value("processes").isBlank()) {
      job.fieldErrors().remove("processes"); // the named application's own process count applies
    }
    if (step == WizardStep.RESOURCES
        && !job.value("partition").isBlank()
        && !job.value("hostFile").isBlank()) {
      job.fieldErrors()
          .put("partition", "Give a host file (Application step) or a partition, not both.");
    }
  }

  /**
   * Reads the stages of a staging step. The form says how many stages it showed; when that is not
   * what the session holds (the list changed in another tab), nothing is read.
   */
  static boolean readStages(
      List<WizardStage> stages,
      Map<String, String[]> params,
      BiFunction<WizardStage, char[], String> seal) {
    String shown = param(params, "stages");
    if (shown == null || !shown.equals(Integer.toString(stages.size()))) {
      return false;
    }
    for (int i = 0; i < stages.size(); i++) {
      readStage(stages.get(i), "s" + i + ".", params, seal);
    }
    return true;
  }

  /**
   * Reads a stage's fields first, so that a typed password is sealed for the destination posted
   * with it.
   */
  private static void readStage(
      WizardStage stage,
      String prefix,
      Map<String, String[]> params,
      BiFunction<WizardStage, char[], String> seal) {
    stage.fieldErrors().clear();
    for (String field : fieldsOf(stage.kind())) {
      String value = param(params, prefix + field);
      if (value != null) {
        stage.set(field, field.equals("statement") ? value.replace("\r\n", "\n") : value.strip());
      }
      check(field, stage.value(field))
          .ifPresent(message -> stage.fieldErrors().put(field, message));
    }
    String secret = secretField(stage.kind());
    if (param(params, prefix + secret + "Clear") != null) {
      stage.set(secret, null);
    }
    String typed = param(params, prefix + secret);
    if (typed != null && !typed.isEmpty()) {
      try {
        stage.set(secret, seal.apply(stage, typed.toCharArray()));
      } catch (IllegalArgumentException | IllegalStateException e) {
        stage.fieldErrors().put(secret, e.getMessage());
      }
    }
  }

  /**
   * Reads the parameter declarations of the parameters step and checks each as the parser would. As
   * with stages, a form that showed another number of declarations than the session holds is not
   * read.
   */
  static boolean readParameters(List<WizardParameter> parameters, Map<String, String[]> params) {
    String shown = param(params, "parameters");
    if (shown == null || !shown.equals(Integer.toString(parameters.size()))) {
      return false;
    }
    for (int i = 0; i < parameters.size(); i++) {
      WizardParameter p = parameters.get(i);
      for (String field : WizardParameter.FIELDS) {
        String value = param(params, "p" + i + "." + field);
        if (value != null) {
          p.set(field, field.equals("name") || field.equals("type") ? value.strip() : value);
        }
      }
    }
    checkParameters(parameters);
    return true;
  }

  /** Checks every declaration, a name declared before counting as taken. */
  static void checkParameters(List<WizardParameter> parameters) {
    List<String> taken = new java.util.ArrayList<>();
    for (WizardParameter p : parameters) {
      p.check(taken);
      taken.add(p.getName());
    }
  }

  /**
   * Reads the review's value fields ({@code v.<name>}, one per declared parameter). A checkbox
   * (boolean) posts a hidden "false" before it and "true" when ticked. The values are checked by
   * the server only, as submitJob checks them, so that the message next to the field is the
   * server's.
   */
  static void readValues(WizardJob job, Map<String, String[]> params) {
    for (WizardParameter p : job.getDeclared()) {
      String[] posted = params.get("v." + p.getName());
      if (posted == null || posted.length == 0) {
        continue;
      }
      String text =
          "checkbox".equals(p.getInputType())
              ? Boolean.toString(java.util.Arrays.asList(posted).contains("true"))
              : posted[0];
      job.parameterValue(p.getName(), text);
    }
  }

  /** What is wrong with one field's text, if the wizard can tell by itself. */
  static java.util.Optional<String> check(String field, String value) {
    if (value.length() > MAX_FIELD) {
      return java.util.Optional.of("At most " + MAX_FIELD + " characters.");
    }
    if (REFERENCE.matcher(value).find()) {
      // a template's ${name}: the server checks the field once the value is in
      return java.util.Optional.empty();
    }
    String message =
        switch (field) {
          case "processes" -> wholeNumber(value, 1, true, "The number of processes");
          case "group" -> wholeNumber(value, 1, true, "The execution-order group");
          case "order" -> wholeNumber(value, 1, true, "The arranging order");
          case "verbosity" -> wholeNumber(value, 0, false, "The verbosity");
          case "wallTime" -> wholeNumber(value, 1, false, "The wall time limit");
          case "batchSize" -> wholeNumber(value, 1, false, "The batch size");
          case "port" -> port(value);
          case "queue" -> queueClass(value);
          case "environment" -> environment(value);
          default -> null;
        };
    return java.util.Optional.ofNullable(message);
  }

  /**
   * gx:Queue's pattern (gantry-jsdl-ext.xsd); whether the user may use the class is the server's.
   */
  private static String queueClass(String value) {
    return value.isBlank() || value.strip().matches("[a-z][a-z0-9-]{0,31}")
        ? null
        : "A priority class is a lower-case name such as urgent, normal or batch"
            + " (letters, digits and -, starting with a letter).";
  }

  private static String wholeNumber(String value, int least, boolean required, String what) {
    String v = value.strip();
    if (v.isEmpty()) {
      return required ? what + " is required." : null;
    }
    try {
      long n = Long.parseLong(v);
      if (n < least || n > Integer.MAX_VALUE) {
        return what + " must be a whole number of at least " + least + ".";
      }
      return null;
    } catch (NumberFormatException e) {
      return what + " must be a whole number of at least " + least + ".";
    }
  }

  private static String port(String value) {
    String v = value.strip();
    if (v.isEmpty()) {
      return null;
    }
    try {
      int n = Integer.parseInt(v);
      return n >= 1 && n <= 65535 ? null : "The port must be between 1 and 65535.";
    } catch (NumberFormatException e) {
      return "The port must be between 1 and 65535.";
    }
  }

  private static String environment(String value) {
    int number = 0;
    for (String line : lines(value)) {
      number++;
      int eq = line.indexOf('=');
      if (eq <= 0 || !ENV_NAME.matcher(line.substring(0, eq)).matches()) {
        return "Line "
            + number
            + " is not NAME=value (a name of letters, digits and _ . -, not starting with a digit).";
      }
    }
    return null;
  }

  /** The non-empty lines of a text area, without their line ends. */
  static List<String> lines(String text) {
    return text.lines()
        .map(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l)
        .filter(l -> !l.isEmpty())
        .toList();
  }

  static String param(Map<String, String[]> params, String name) {
    String[] values = params.get(name);
    return values == null || values.length == 0 ? null : values[0];
  }
}
