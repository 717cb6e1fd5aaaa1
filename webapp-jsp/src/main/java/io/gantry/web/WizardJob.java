package io.gantry.web;

import java.util.ArrayList;
import java.util.List;

/**
 * The job a user is building in the wizard, kept in the HTTP session: the job's own fields
 * (identification, application, resources) as typed, the ordered stage-in and stage-out steps,
 * and what is wrong with them: the wizard's own checks of each posted field, and the server's
 * validation report placed next to the fields it names.
 */
public final class WizardJob extends WizardFields {
  private static final long serialVersionUID = 1L;

  private final List<WizardStage> pre = new ArrayList<>();
  private final List<WizardStage> post = new ArrayList<>();
  private String draftName = "";
  private boolean reviewed;

  public List<WizardStage> getPre() {
    return pre;
  }

  public List<WizardStage> getPost() {
    return post;
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

  /** Whether the user has seen the review once: from then on every posted step is validated again. */
  boolean reviewed() {
    return reviewed;
  }

  void reviewed(boolean reviewed) {
    this.reviewed = reviewed;
  }
}
