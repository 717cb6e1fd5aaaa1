package io.gantry.dispatcher.farm;

/** How a task reached its final state; the wire codes 0..3 are the launcher's (protocol 1). */
public enum TaskEnd {
  /** It exited on its own; the code is its exit status (0 is success). */
  EXITED,
  /** A signal ended it; the code is the signal number. */
  SIGNALED,
  /** It went over its wall time and the launcher stopped it; the code is the final signal. */
  TIMED_OUT,
  /** It could not be started; the code is the {@code errno} of the failed exec. */
  NOT_STARTED,
  /** Its launcher disappeared on every attempt the retry limit allowed; code 0. */
  LOST;

  /** The protocol's {@code how} byte, or empty for a value no launcher sends. */
  public static java.util.Optional<TaskEnd> ofWire(int how) {
    return switch (how) {
      case 0 -> java.util.Optional.of(EXITED);
      case 1 -> java.util.Optional.of(SIGNALED);
      case 2 -> java.util.Optional.of(TIMED_OUT);
      case 3 -> java.util.Optional.of(NOT_STARTED);
      default -> java.util.Optional.empty();
    };
  }

  /** The CSV and journal name: lower case, e.g. {@code timed_out}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
