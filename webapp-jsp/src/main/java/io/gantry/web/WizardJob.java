package io.gantry.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job a user is building in the wizard, kept in the HTTP session: the job's own fields
 * (identification, application, resources) as typed, the ordered stage-in and stage-out steps, the
 * parameters it declares when it is a job template (its text then refers to them as <code>${name}
 * </code>, kept as written), the values typed for them at the review, and what is wrong with all of
 * these: the wizard's own checks of each posted field, and the server's validation report placed
 * next to the fields it names.
 *
 * <p>The values are never written into the document: they travel beside it (the API's {@code
 * JobDocument} parameter values), so that the server binds them in SQL as JDBC parameters.
 */
public final class WizardJob extends WizardFields {
  private static final long serialVersionUID = 1L;

  /**
   * The named application a new job runs: the sample's Monte Carlo VaR program, on its 2 processes.
   */
  static final String DEFAULT_APPLICATION = "mcvar";

  private final List<WizardStage> pre = new ArrayList<>();
  private final List<WizardStage> post = new ArrayList<>();
  private final List<WizardParameter> parameters = new ArrayList<>();

  /** Typed at the review, by parameter name; "" when the field was left empty (no value). */
  private final Map<String, String> parameterValues = new LinkedHashMap<>();

  /** The server's problems with a value, by parameter name (a missing or mistyped value). */
  private final Map<String, String> valueProblems = new LinkedHashMap<>();

  private String draftName = "";
  private boolean reviewed;

  /**
   * A new job as the wizard offers it: the named application mcvar with its default process count,
   * so a user who only adds staging submits plain JSDL any grid client could write; typing an
   * executable instead describes the program (gx:MpirunApplication).
   */
  static WizardJob fresh() {
    WizardJob job = new WizardJob();
    job.set("applicationName", DEFAULT_APPLICATION);
    job.set("processes", "2");
    return job;
  }

  public List<WizardStage> getPre() {
    return pre;
  }

  public List<WizardStage> getPost() {
    return post;
  }

  public List<WizardParameter> getParameters() {
    return parameters;
  }

  /** The declarations the parser accepts, each name once: the review's value fields. */
  public List<WizardParameter> getDeclared() {
    List<String> seen = new ArrayList<>();
    List<WizardParameter> declared = new ArrayList<>();
    for (WizardParameter p : parameters) {
      if (p.declared() && !seen.contains(p.getName())) {
        seen.add(p.getName());
        declared.add(p);
      }
    }
    return declared;
  }

  /**
   * The value field's text for each declared parameter: as typed, else the default (pre-filled),
   * else empty.
   */
  public Map<String, String> getValueFields() {
    Map<String, String> fields = new LinkedHashMap<>();
    for (WizardParameter p : getDeclared()) {
      String typed = parameterValues.get(p.getName());
      fields.put(p.getName(), typed != null ? typed : p.value("default"));
    }
    return fields;
  }

  /**
   * The values sent with the document: each declared parameter's non-empty field. An empty field
   * sends none, so the default applies, or the server says the value is missing.
   */
  Map<String, String> valuesToSend() {
    Map<String, String> send = new LinkedHashMap<>();
    getValueFields()
        .forEach(
            (name, text) -> {
              if (!text.isEmpty()) {
                send.put(name, text);
              }
            });
    return send;
  }

  void parameterValue(String name, String text) {
    parameterValues.put(name, text == null ? "" : text);
  }

  public Map<String, String> getValueErrors() {
    return valueProblems;
  }

  Map<String, String> valueProblems() {
    return valueProblems;
  }

  List<WizardStage> stages(boolean stageIn) {
    return stageIn ? pre : post;
  }

  public String getDraftName() {
    return draftName;
  }

  void draftName(String name) {
    this.draftName = name == null ? "" : name;
  }

  /**
   * Whether the user has seen the review once: from then on every posted step is validated again.
   */
  boolean reviewed() {
    return reviewed;
  }

  void reviewed(boolean reviewed) {
    this.reviewed = reviewed;
  }
}
