package io.gantry.dispatcher;

/**
 * Starts a job's program and hands back a handle to supervise it. The local backends run the
 * program on this host ({@link LocalMpirunLauncher}, {@link PosixLauncher}); a batch-system backend
 * such as Slurm implements the same interface by submitting instead of forking.
 */
public interface Launcher {

  /**
   * Starts the program described by {@code spec}. Returns once the process exists; the outcome
   * arrives later through {@link RunningJob#onExit()}.
   *
   * @throws LaunchException when the program could not be started at all
   * @throws IllegalArgumentException when the spec asks for something this launcher refuses
   */
  RunningJob launch(LaunchSpec spec) throws LaunchException;
}
