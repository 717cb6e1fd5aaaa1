package io.gantry.jsdl.farm;

/**
 * A place in the {@link TaskTemplate} that a sweep's DocumentNode selects.
 *
 * @param kind which part of the application
 * @param index the Argument's or Environment's position (0-based); 0 for the executable
 */
public record SweepTarget(Kind kind, int index) {
  public enum Kind {
    EXECUTABLE,
    ARGUMENT,
    ENVIRONMENT
  }
}
