package io.gantry.dispatcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Local jobs that outlive the server: each job's program runs under its own supervisor process,
 * {@code gantry-stepd} (node-programs/stepd), in a session of its own, instead of as the server's
 * child. The supervisor holds the process tree, enforces the wall time, takes kill requests
 * (SIGTERM to it) and writes the job's end into {@code statusDirectory}, which only the server's
 * account can write; a restarted server follows the job again through {@link
 * DetachedJobs#reattach}.
 *
 * @param program the {@code gantry-stepd} executable, an absolute path
 * @param statusDirectory where each supervisor writes its record at its start ({@code
 *     JOBID.started}) and its job's end ({@code JOBID.status})
 */
public record DetachedSupervision(Path program, Path statusDirectory) {
  public DetachedSupervision {
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(statusDirectory, "statusDirectory");
    if (!program.isAbsolute() || !Files.isRegularFile(program) || !Files.isExecutable(program)) {
      throw new IllegalArgumentException(
          "the job supervisor " + program + " is not an executable file given by absolute path");
    }
    if (!statusDirectory.isAbsolute()) {
      throw new IllegalArgumentException(
          "the supervisors' status directory " + statusDirectory + " is not an absolute path");
    }
  }
}
