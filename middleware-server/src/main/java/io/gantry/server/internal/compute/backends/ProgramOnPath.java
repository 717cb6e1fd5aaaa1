package io.gantry.server.internal.compute.backends;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Whether a backend's own program (mpirun, sbatch) is there, as the server would start it. */
final class ProgramOnPath {
  private ProgramOnPath() {}

  /** Empty when {@code program} (a path, or a name looked up on PATH) is executable. */
  static Optional<String> problem(String program) {
    if (program.contains("/")) {
      return Files.isExecutable(Path.of(program))
          ? Optional.empty()
          : Optional.of(program + " is not an executable file");
    }
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
          return Optional.empty();
        }
      }
    }
    return Optional.of(program + " is not on the server's PATH");
  }
}
