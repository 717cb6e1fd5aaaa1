package io.gantry.server.internal.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What /readyz checks, each by name: the job store, the data directory and the compute backend.
 * Each check answers its problem, or empty while it is fine; a check that throws is a problem.
 */
public final class Readiness {
  private final Map<String, Supplier<Optional<String>>> checks = new LinkedHashMap<>();

  /** Adds a named check; names are shown in /readyz and as gantry_ready's check label. */
  public Readiness with(String name, Supplier<Optional<String>> check) {
    checks.put(name, check);
    return this;
  }

  /** Every check's answer, in the order added: empty string when it passes. */
  public Map<String, String> check() {
    Map<String, String> answers = new LinkedHashMap<>();
    checks.forEach(
        (name, check) -> {
          String problem;
          try {
            problem = check.get().orElse("");
          } catch (RuntimeException e) {
            problem = e.getClass().getSimpleName() + ": " + e.getMessage();
          }
          answers.put(name, problem);
        });
    return answers;
  }
}
