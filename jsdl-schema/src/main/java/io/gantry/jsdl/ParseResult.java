package io.gantry.jsdl;

import java.util.Optional;

/** What {@link JsdlParser} found: the report, and the job when there is no error. */
public final class ParseResult {
  private final ValidationReport report;
  private final JsdlJob job;

  ParseResult(ValidationReport report, JsdlJob job) {
    this.report = report;
    this.job = job;
  }

  public ValidationReport report() {
    return report;
  }

  /** True when there is no error; warnings do not make a job invalid. */
  public boolean isValid() {
    return !report.hasErrors();
  }

  /** The job, present exactly when {@link #isValid()}. */
  public Optional<JsdlJob> job() {
    return Optional.ofNullable(job);
  }

  /** The job of a valid document; IllegalStateException with the report otherwise. */
  public JsdlJob validJob() {
    if (job == null) {
      throw new IllegalStateException("the job description is invalid:\n" + report);
    }
    return job;
  }
}
