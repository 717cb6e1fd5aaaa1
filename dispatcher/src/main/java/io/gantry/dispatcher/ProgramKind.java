package io.gantry.dispatcher;

/** How a job's program is started: under {@code mpirun}, or as one plain POSIX process. */
public enum ProgramKind {
  /** MpirunApplication or SPMDApplication: {@code mpirun} starts the ranks. */
  MPI,
  /** POSIXApplication: the executable runs directly, without {@code mpirun}. */
  POSIX
}
