package io.gantry.architecture.violation;

import io.gantry.server.config.ServerConfig;

/**
 * What the compute-backend rule forbids: a class outside the factory that asks which backend runs
 * the jobs. Only the architecture tests compile it; no module sees it.
 */
public final class BranchesOnTheBackendKind {
  private BranchesOnTheBackendKind() {}

  static boolean submitsToSlurm(ServerConfig config) {
    return "slurm".equals(config.compute().backend());
  }
}
