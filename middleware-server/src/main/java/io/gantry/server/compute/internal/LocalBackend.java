package io.gantry.server.compute.internal;

import io.gantry.dispatcher.LocalMpirunLauncher;
import io.gantry.server.compute.BackendContext;
import io.gantry.server.compute.ComputeBackend;
import io.gantry.server.compute.ComputePolicy;
import java.util.Map;

/**
 * {@code compute.backend=local}: MPI programs through mpirun on this host, in this host's sandbox
 * (which shows JSDL file systems at {@code /fs/NAME}); a job's own host file is used.
 */
public final class LocalBackend extends MpirunBackend {
  private LocalBackend(BackendContext context) {
    super(
        "local",
        new ComputePolicy("local", true, true, false, false, null, null, Map.of()),
        context,
        LocalMpirunLauncher::new);
  }

  /** The registration's constructor. */
  public static ComputeBackend create(BackendContext context) {
    StartupChecks.hostFileUnused(context.config(), "local");
    return new LocalBackend(context);
  }
}
