package io.gantry.dispatcher.slurm;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Runs Slurm's client commands as argument arrays and hands back what they printed: on this host
 * ({@link LocalSlurmClient}) or on a cluster's login node over SSH ({@link SshSlurmClient}).
 */
interface SlurmClient {
  /** What one command did. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    boolean succeeded() {
      return exitCode == 0;
    }

    String describe() {
      return command.get(0) + " exited with " + exitCode + ": " + stderr.strip();
    }
  }

  /** Runs {@code name} (resolved in the configured bin directory) with {@code args}. */
  Result run(String name, List<String> args) throws IOException;

  /**
   * Runs {@code sbatch} with {@code args}; {@code jobEnvironment} reaches the job (with the
   * submitting environment's own variables, as sbatch's default {@code --export=ALL} does).
   */
  Result submit(List<String> args, Map<String, String> jobEnvironment) throws IOException;
}
