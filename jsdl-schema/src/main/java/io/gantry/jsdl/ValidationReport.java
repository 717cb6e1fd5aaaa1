package io.gantry.jsdl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/** Every problem found in one job description, errors and warnings, in document order. */
public final class ValidationReport {
  private final List<Problem> problems = new ArrayList<>();

  public void error(int line, int column, String path, String message) {
    problems.add(new Problem(Severity.ERROR, line, column, path, message));
  }

  public void warning(int line, int column, String path, String message) {
    problems.add(new Problem(Severity.WARNING, line, column, path, message));
  }

  /** All problems sorted by position; problems without a position come first. */
  public List<Problem> problems() {
    List<Problem> sorted = new ArrayList<>(problems);
    sorted.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
    return Collections.unmodifiableList(sorted);
  }

  public List<Problem> errors() {
    return problems().stream().filter(p -> p.severity() == Severity.ERROR).toList();
  }

  public List<Problem> warnings() {
    return problems().stream().filter(p -> p.severity() == Severity.WARNING).toList();
  }

  public boolean hasErrors() {
    return problems.stream().anyMatch(p -> p.severity() == Severity.ERROR);
  }

  /** One problem a line; warnings are prefixed {@code warning: }. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (Problem p : problems()) {
      text.append(p.severity() == Severity.WARNING ? "warning: " : "").append(p).append('\n');
    }
    return text.toString();
  }
}
