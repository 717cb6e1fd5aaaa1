package io.gantry.web;

import io.gantry.server.api.Problem;
import java.util.ArrayList;
import java.util.List;

/** What the wizard's pages read: public records, since pages see only public components. */
final class WizardViews {
  private WizardViews() {}

  /** One entry of the step navigation. */
  public record StepLink(
      String slug, String title, int number, boolean current, boolean hasErrors) {}

  /** One problem of the server's report, as the API gives it. */
  public record ProblemRow(String severity, int line, int column, String path, String message) {
    static ProblemRow of(Problem p) {
      return new ProblemRow(p.severity, p.line, p.column, p.path == null ? "" : p.path, p.message);
    }
  }

  @SuppressWarnings("EnumOrdinal") // a step's number is its place in declaration order
  static List<StepLink> steps(WizardJob job, WizardStep current) {
    List<StepLink> links = new ArrayList<>();
    for (WizardStep step : WizardStep.values()) {
      links.add(
          new StepLink(
              step.getSlug(),
              step.getTitle(),
              step.ordinal() + 1,
              step == current,
              step.hasErrors(job)));
    }
    return links;
  }
}
