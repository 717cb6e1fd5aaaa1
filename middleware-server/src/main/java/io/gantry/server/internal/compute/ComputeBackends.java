package io.gantry.server.internal.compute;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.backends.ClusterSlurmBackend;
import io.gantry.server.internal.compute.backends.LocalBackend;
import io.gantry.server.internal.compute.backends.MpirunHostsBackend;
import io.gantry.server.internal.compute.backends.SlurmBackend;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that knows the backends: each is registered once, with the settings that choose it.
 * Adding a backend is one class implementing {@link ComputeBackend} and one registration here (and
 * its name among {@code compute.backend}'s values).
 */
public final class ComputeBackends {
  private static final Logger log = LoggerFactory.getLogger(ComputeBackends.class);

  /** Makes a backend; may fail on its settings ({@code ConfigException}) or its files. */
  @FunctionalInterface
  public interface Constructor {
    ComputeBackend create(BackendContext context) throws IOException;
  }

  /**
   * A backend, and which {@code compute.*} settings choose it.
   *
   * @param name how the documentation names it
   * @param policy what the backend makes of jobs under these settings, known without making it (an
   *     offline {@code gantry-server check} asks it)
   */
  public record Registration(
      String name,
      Predicate<ServerConfig.Compute> chosenBy,
      Function<ServerConfig.Compute, ComputePolicy> policy,
      Constructor constructor) {}

  private static final List<Registration> REGISTERED =
      List.of(
          new Registration(
              "local",
              c -> c.backend() == ServerConfig.Backend.LOCAL,
              LocalBackend::policy,
              LocalBackend::create),
          new Registration(
              "mpirun-hosts",
              c -> c.backend() == ServerConfig.Backend.MPIRUN_HOSTS,
              MpirunHostsBackend::policy,
              MpirunHostsBackend::create),
          new Registration(
              "slurm",
              c -> c.backend() == ServerConfig.Backend.SLURM && c.cluster() == null,
              SlurmBackend::policy,
              SlurmBackend::create),
          new Registration(
              "slurm over SSH",
              c -> c.backend() == ServerConfig.Backend.SLURM && c.cluster() != null,
              ClusterSlurmBackend::policy,
              ClusterSlurmBackend::create));

  private ComputeBackends() {}

  /** Every registered backend. */
  public static List<Registration> registered() {
    return REGISTERED;
  }

  /** What the backend these settings choose makes of jobs, without making the backend. */
  public static ComputePolicy policyFor(ServerConfig.Compute settings) {
    return chosen(settings).policy().apply(settings);
  }

  /** The backend the configuration chooses; exactly one registration matches. */
  public static ComputeBackend create(BackendContext context) throws IOException {
    ComputeBackend backend = chosen(context.config().compute()).constructor().create(context);
    log.info("compute backend {}", backend.name());
    return backend;
  }

  private static Registration chosen(ServerConfig.Compute settings) {
    List<Registration> chosen =
        REGISTERED.stream().filter(r -> r.chosenBy().test(settings)).toList();
    if (chosen.size() != 1) {
      throw new IllegalStateException(
          "compute.backend="
              + settings.backend().setting()
              + " chooses "
              + chosen.size()
              + " registered backends, not one");
    }
    return chosen.get(0);
  }
}
