package io.gantry.web;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The wizard's steps, in order, each with the job fields its form posts. The staging steps post
 * their list of stages instead, the parameters step its list of declarations, and the review the
 * parameters' values (see {@link WizardForm}).
 */
public enum WizardStep {
  IDENTIFICATION("Identification", List.of("name", "description", "project")),
  APPLICATION(
      "Application",
      List.of(
          "applicationName",
          "applicationVersion",
          "executable",
          "processes",
          "arguments",
          "environment",
          "workingDirectory",
          "hostFile",
          "stdout",
          "stderr",
          "verbosity",
          "mpirunOptions")),
  RESOURCES("Resources", List.of("wallTime", "partition", "queue")),
  PRE_STAGING("Pre-staging", List.of()),
  POST_STAGING("Post-staging", List.of()),
  /** A job template's declarations (gx:Parameters); each posted as {@code p<index>.<field>}. */
  PARAMETERS("Parameters", List.of()),
  REVIEW("Review", List.of());

  private final String title;

  @SuppressWarnings("ImmutableEnumChecker") // always a List.of(...), which is immutable
  final List<String> fields;

  WizardStep(String title, List<String> fields) {
    this.title = title;
    this.fields = fields;
  }

  public String getTitle() {
    return title;
  }

  /** The step's name in URLs and form values: {@code pre-staging}. */
  public String getSlug() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The key under which problems with the step as a whole (not one field) are kept. */
  String generalKey() {
    return "_" + getSlug();
  }

  boolean staging() {
    return this == PRE_STAGING || this == POST_STAGING;
  }

  static Optional<WizardStep> bySlug(String slug) {
    for (WizardStep step : values()) {
      if (step.getSlug().equals(slug)) {
        return Optional.of(step);
      }
    }
    return Optional.empty();
  }

  // the wizard's steps are, by design, its constants in declaration order
  @SuppressWarnings("EnumOrdinal")
  WizardStep next() {
    return values()[Math.min(ordinal() + 1, values().length - 1)];
  }

  @SuppressWarnings("EnumOrdinal")
  WizardStep previous() {
    return values()[Math.max(ordinal() - 1, 0)];
  }

  /** Whether the job has errors in this step's fields, as the step navigation marks it. */
  boolean hasErrors(WizardJob job) {
    if (this == PARAMETERS) {
      return job.getParameters().stream().anyMatch(WizardParameter::isHasErrors)
          || job.getErrors().containsKey(generalKey());
    }
    if (this == REVIEW) {
      return !job.getValueErrors().isEmpty();
    }
    if (staging()) {
      return job.stages(this == PRE_STAGING).stream().anyMatch(WizardStage::isHasErrors)
          || job.getErrors().containsKey(generalKey());
    }
    return job.getErrors().keySet().stream()
        .anyMatch(k -> fields.contains(k) || k.equals(generalKey()));
  }
}
