package io.gantry.dispatcher.workersession;

import java.util.List;
import java.util.Map;

/**
 * The program each of a session's launchers starts once and keeps: an executable (looked up on the
 * sandbox's {@code PATH} when it has no slash), its arguments and environment variables on top of
 * the launcher's.
 */
public record WorkerProgram(
    String executable, List<String> arguments, Map<String, String> environment) {
  public WorkerProgram {
    if (executable == null || executable.isEmpty() || executable.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a worker program needs an executable");
    }
    arguments = List.copyOf(arguments);
    environment = Map.copyOf(environment);
  }
}
