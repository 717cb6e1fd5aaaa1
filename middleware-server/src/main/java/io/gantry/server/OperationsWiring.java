package io.gantry.server;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.metrics.OperationsListener;
import io.gantry.server.internal.metrics.Readiness;
import io.gantry.server.internal.metrics.ServerMetrics;
import io.gantry.server.internal.storagewatch.StorageWatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations listener's parts (docs/operations.md): gauges read at scrape time from the job
 * store and the storage watch, and /readyz's three named checks: the job store answers a query, the
 * data directory is there, writable and untroubled, the compute backend's program is there.
 */
final class OperationsWiring {
  private static final Logger log = LoggerFactory.getLogger(OperationsWiring.class);

  private OperationsWiring() {}

  /** Starts the listener when ops.listen-port is set; empty otherwise. */
  static Optional<OperationsListener> start(
      ServerConfig config,
      ServerMetrics metrics,
      JdbcJobStore store,
      StorageWatch storage,
      ComputeBackend backend)
      throws IOException {
    metrics.watchJobStates(
        () -> {
          Map<String, Long> byName = new LinkedHashMap<>();
          store.countByState().forEach((state, n) -> byName.put(state.name(), n));
          return byName;
        });
    metrics.watchStorage(storage::problem);
    metrics.watchNotificationBacklog(store.outbox()::backlog);
    Readiness readiness =
        new Readiness()
            .with(
                "job store",
                () -> {
                  store.countByState();
                  return Optional.empty();
                })
            .with("data directory", () -> dataDirectoryProblem(config.dataDirectory(), storage))
            .with("backend", backend::readinessProblem);
    metrics.watchReadiness(readiness);
    ServerConfig.Operations ops = config.operations();
    if (!ops.enabled()) {
      return Optional.empty();
    }
    OperationsListener listener =
        OperationsListener.start(ops.host(), ops.port(), metrics, readiness);
    log.info(
        "metrics and health on http://{}:{}/metrics, /healthz, /readyz",
        listener.address().getHostString(),
        listener.address().getPort());
    return Optional.of(listener);
  }

  private static Optional<String> dataDirectoryProblem(Path dir, StorageWatch storage) {
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      return Optional.of(dir + " is not a writable directory");
    }
    return storage.problem();
  }
}
