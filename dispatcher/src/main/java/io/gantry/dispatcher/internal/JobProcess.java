package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

/**
 * How a job's first process is set up, whoever supervises it ({@link ProcessSupervisor} as the
 * server's child, {@link StepdSupervisor} under gantry-stepd): in the job's working directory, with
 * exactly the given environment, standard input empty, standard output and error to the job's
 * files.
 */
final class JobProcess {
  private static final File NO_INPUT = new File("/dev/null");

  private JobProcess() {}

  /** Refuses a job whose working directory does not exist. */
  static void requireWorkingDirectory(LaunchSpec spec) throws LaunchException {
    if (!Files.isDirectory(spec.workingDirectory())) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": working directory "
              + spec.workingDirectory()
              + " does not exist");
    }
  }

  /**
   * @throws LaunchException when the working directory does not exist
   */
  static ProcessBuilder builder(
      LaunchSpec spec, List<String> command, Map<String, String> environment)
      throws LaunchException {
    requireWorkingDirectory(spec);
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(spec.workingDirectory().toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    builder.redirectInput(NO_INPUT).redirectOutput(spec.stdout().toFile());
    if (spec.stdout()
        .toAbsolutePath()
        .normalize()
        .equals(spec.stderr().toAbsolutePath().normalize())) {
      // Two descriptors on one file would overwrite each other's output; share one instead.
      builder.redirectErrorStream(true);
    } else {
      builder.redirectError(spec.stderr().toFile());
    }
    return builder;
  }
}
