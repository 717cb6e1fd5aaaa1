package io.gantry.jsdl;

/**
 * One thing wrong with a job description, located so a user can find and fix it.
 *
 * @param line 1-based line of the element's start tag, or 0 when the input has no position
 * @param column 1-based column of the element's start tag ({@code <}), or 0
 * @param path the element's path from the root: local names, 1-based indexes for repeated siblings,
 *     e.g. {@code JobDefinition/JobDescription/PreDataStaging/SQLQueryDataStaging[3]}
 */
public record Problem(Severity severity, int line, int column, String path, String message) {

  /** {@code line 41:7 JobDefinition/...: SQLStatement is missing}; no severity prefix. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    if (line > 0) {
      text.append("line ").append(line).append(':').append(column).append(' ');
    }
    if (!path.isEmpty()) {
      text.append(path).append(": ");
    }
    return text.append(message).toString();
  }
}
