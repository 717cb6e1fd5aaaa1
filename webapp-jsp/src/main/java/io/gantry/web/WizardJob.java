package io.gantry.web;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job a user is building in the wizard, kept in the HTTP session: the job's own fields
 * (identification, application, resources) as typed, the ordered stage-in and stage-out steps,
 * and what is wrong with them: the wizard's own checks of each posted field, and the server's
 * validation report placed next to the fields it names.
 */
public final class WizardJob implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Map<String, String> values = new LinkedHashMap<>();
  private final List<WizardStage> pre = new ArrayList<>();
  private final List<WizardStage> post = new ArrayList<>();
  private final Map<String, String> fieldErrors = new LinkedHashMap<>();
  private final Map<String, String> serverProblems = new LinkedHashMap<>();
  private String draftName = "";
  private boolean reviewed;

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

  public List<WizardStage> getPre() {
    return pre;
  }

  public List<WizardStage> getPost() {
    return post;
  }

  List<WizardStage> stages(boolean stageIn) {
    return stageIn ? pre : post;
  }

  Map<String, String> fieldErrors() {
    return fieldErrors;
  }

  Map<String, String> serverProblems() {
    return serverProblems;
  }

  public Map<String, String> getErrors() {
    return merged(fieldErrors, serverProblems);
  }

  public String getDraftName() {
    return draftName;
  }

  void draftName(String name) {
    this.draftName = name == null ? "" : name;
  }

  /** Whether the user has seen the review once: from then on every posted step is validated again. */
  boolean reviewed() {
    return reviewed;
  }

  void reviewed(boolean reviewed) {
    this.reviewed = reviewed;
  }

  static Map<String, String> merged(Map<String, String> own, Map<String, String> server) {
    Map<String, String> all = new LinkedHashMap<>(own);
    server.forEach((field, message) -> all.merge(field, message, (a, b) -> a + " " + b));
    return all;
  }
}
