package io.gantry.jsdl;

/** How bad a problem in a job description is: errors refuse the job, warnings do not. */
public enum Severity {
  ERROR,
  WARNING
}
