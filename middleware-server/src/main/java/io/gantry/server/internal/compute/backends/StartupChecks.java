package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DetachedSupervision;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Settings some backends share, read when the backend is made. */
final class StartupChecks {
  private static final Logger log = LoggerFactory.getLogger(StartupChecks.class);

  private StartupChecks() {}

  /**
   * The supervisor jobs of this host run under so that they outlive the server ({@code
   * jobs.supervisor}), writing their ends under {@code DATA/supervisor}; empty when none is
   * configured, with a warning when {@code warnWithout} (the backend's jobs would run as the
   * server's children).
   */
  static Optional<DetachedSupervision> supervision(ServerConfig config, boolean warnWithout) {
    if (config.sandbox().supervisor() == null) {
      if (warnWithout) {
        log.warn(
            "jobs.supervisor is not set: running jobs end when the server stops, and a restart"
                + " fails them; set it to node-programs/build/gantry-stepd");
      }
      return Optional.empty();
    }
    try {
      return Optional.of(
          new DetachedSupervision(
              config.sandbox().supervisor(), config.dataDirectory().resolve("supervisor")));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("jobs.supervisor", e.getMessage());
    }
  }

  /** A warning for {@code mpirun.hostfile} set where backend {@code name} does not use it. */
  static void hostFileUnused(ServerConfig config, String name) {
    if (config.hostFile() != null) {
      log.warn(
          "mpirun.hostfile is used by compute.backend=mpirun-hosts only; with {} it is not used",
          name);
    }
  }
}
