package io.gantry.web;

import java.util.ArrayList;
import java.util.List;

/**
 * The job a user is building in the wizard, kept in the HTTP session: the job's own fields
 * (identification, application, resources) as typed, the ordered stage-in and stage-out steps, and
 * what is wrong with them: the wizard's own checks of each posted field, and the server's
 * validation report placed next to the fields it names.
 */
public final class WizardJob extends WizardFields {
  private static final long serialVersionUID = 1L;

  /**
   * The named application a new job runs: the sample's Monte Carlo VaR program, on its 2 processes.
   */
  static final String DEFAULT_APPLICATION = "mcvar";

  private final List<WizardStage> pre = new ArrayList<>();
  private final List<WizardStage> post = new ArrayList<>();
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
