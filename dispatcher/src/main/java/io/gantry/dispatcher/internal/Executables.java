package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds a job's executable on this host before anything is started, so a typo gives the user
 * "executable not found" rather than a launcher's exit status.
 */
public final class Executables {
  private Executables() {}

  /**
   * Resolves like {@code execvp} would from the job's working directory: a name with a slash is a
   * path (relative to the working directory), a bare name is looked up on the job's own {@code
   * PATH}, not the server's.
   */
  public static Path resolve(LaunchSpec spec, String childPath) throws LaunchException {
    String exe = spec.executable();
    if (exe.contains("/")) {
      return requireExecutable(spec, spec.workingDirectory().resolve(exe));
    }
    if (childPath != null) {
      for (String dir : childPath.split(":")) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, exe);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    throw new LaunchException(
        "job "
            + spec.jobId()
            + ": executable '"
            + exe
            + "' not found on the job's PATH; give its full path");
  }

  static Path requireExecutable(LaunchSpec spec, Path path) throws LaunchException {
    if (!Files.exists(path)) {
      throw new LaunchException("job " + spec.jobId() + ": executable " + path + " does not exist");
    }
    if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": "
              + path
              + " is not an executable file (check its permissions)");
    }
    return path;
  }
}
