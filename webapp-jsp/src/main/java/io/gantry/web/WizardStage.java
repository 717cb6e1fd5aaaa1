package io.gantry.web;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One staging step as the wizard edits it: its kind and its fields as the user typed them (text,
 * so that a wrong entry can be shown back next to its field). Passwords are only ever held here
 * in their encrypted {@code ENC(...)} form. Pages read {@code kind}, {@code values} and
 * {@code errors} by name.
 */
public final class WizardStage implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The three kinds of staging step, with the element each becomes. */
  public enum Kind {
    SQL_QUERY("SQLQueryDataStaging"), SQL_UPDATE("SQLUpdateDataStaging"), SCP("SCPDataStaging");

    final String element;

    Kind(String element) {
      this.element = element;
    }
  }

  private final Kind kind;
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, String> fieldErrors = new LinkedHashMap<>();
  private final Map<String, String> serverProblems = new LinkedHashMap<>();

  public WizardStage(Kind kind) {
    this.kind = kind;
  }

  public String getKind() {
    return kind.name();
  }

  Kind kind() {
    return kind;
  }

  public Map<String, String> getValues() {
    return values;
  }

  String value(String field) {
    String v = values.get(field);
    return v == null ? "" : v;
  }

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
    return WizardJob.merged(fieldErrors, serverProblems);
  }

  public boolean isHasErrors() {
    return !fieldErrors.isEmpty() || !serverProblems.isEmpty();
  }
}
