package io.gantry.web;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fields as the user typed them (text, so that a wrong entry can be shown back next to its field),
 * with what is wrong with them: the wizard's own checks of each posted field and the server's
 * validation report placed on the fields it names. The job's own fields ({@link WizardJob}) and
 * each staging step's ({@link WizardStage}) are kept this way. Pages read {@code values} and {@code
 * errors} by name.
 */
public abstract class WizardFields implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, String> fieldErrors = new LinkedHashMap<>();
  private final Map<String, String> serverProblems = new LinkedHashMap<>();

  public Map<String, String> getValues() {
    return values;
  }

  String value(String field) {
    String v = values.get(field);
    return v == null ? "" : v;
  }

  /** Sets a field; an empty value removes it. */
  void set(String field, String value) {
    if (value == null || value.isEmpty()) {
      values.remove(field);
    } else {
      values.put(field, value);
    }
  }

  Map<String, String> fieldErrors() {
    return fieldErrors;
  }

  Map<String, String> serverProblems() {
    return serverProblems;
  }

  /** What is wrong, field by field: the wizard's own checks first, then the server's. */
  public Map<String, String> getErrors() {
    Map<String, String> all = new LinkedHashMap<>(fieldErrors);
    serverProblems.forEach((field, message) -> all.merge(field, message, (a, b) -> a + " " + b));
    return all;
  }

  /** Whether any field has a problem (pages read it as {@code hasErrors}). */
  public boolean isHasErrors() {
    return !fieldErrors.isEmpty() || !serverProblems.isEmpty();
  }
}
