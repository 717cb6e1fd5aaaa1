package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.LocalMpirunLauncher;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.BackendContext;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputePolicy;
import java.util.Map;

/**
 * {@code compute.backend=local}: MPI programs through mpirun on this host, in this host's sandbox
 * (which shows JSDL file systems at {@code /fs/NAME}); a job's own host file is used.
 */
public final class LocalBackend extends MpirunBackend {
  private LocalBackend(BackendContext context) {
    super("local", policy(context.config().compute()), context, LocalMpirunLauncher::new);
  }

  /** What this backend makes of jobs (the registration's policy). */
  public static ComputePolicy policy(ServerConfig.Compute settings) {
    return new ComputePolicy("local", true, true, false, false, null, null, Map.of(), false);
  }

  /** The registration's constructor. */
  public static ComputeBackend create(BackendContext context) {
    StartupChecks.hostFileUnused(context.config(), "local");
    return new LocalBackend(context);
  }
}
