package io.gantry.server.internal.compute.backends;

/** Why a backend refuses a feature of this host, said the same wherever it is refused. */
final class Refusals {
  private Refusals() {}

  /** The Slurm backends run no worker sessions. */
  static final String SESSIONS_OUTSIDE_SLURM =
      "worker sessions run on compute.backend local or mpirun-hosts, not slurm";
}
