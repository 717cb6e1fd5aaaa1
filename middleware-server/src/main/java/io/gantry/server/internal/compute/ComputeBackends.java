package io.gantry.server.internal.compute;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.backends.ClusterSlurmBackend;
import io.gantry.server.internal.compute.backends.LocalBackend;
import io.gantry.server.internal.compute.backends.MpirunHostsBackend;
import io.gantry.server.internal.compute.backends.SlurmBackend;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that knows the backends: each is registered once, with the {@code compute.backend}
 * name that chooses it, where its job directories lie and the settings it cannot run without.
 * Adding a backend is one class implementing {@link ComputeBackend} and one registration here;
 * nothing in the configuration changes.
 */
public final class ComputeBackends {
  private static final Logger log = LoggerFactory.getLogger(ComputeBackends.class);

  /** Makes a backend; may fail on its settings ({@code ConfigException}) or its files. */
  @FunctionalInterface
  public interface Constructor {
    ComputeBackend create(BackendContext context) throws IOException;
  }

  /** Where a backend's job directories lie, which {@code compute.ssh-host} chooses. */
  public enum Site {
    /** On this host's file system (shared with the nodes where the backend uses nodes). */
    THIS_HOST,
    /** On a cluster reached over SSH ({@code compute.ssh-host}). */
    CLUSTER_OVER_SSH;

    static Site of(ServerConfig.Compute settings) {
      return settings.cluster() == null ? THIS_HOST : CLUSTER_OVER_SSH;
    }
  }

  /**
   * A setting a backend cannot run without.
   *
   * @param key the setting, for the message
   * @param isSet whether the configuration has it
   */
  public record Requirement(String key, Predicate<ServerConfig> isSet) {}

  /**
   * A backend, and which settings choose it.
   *
   * @param name how the documentation names it
   * @param backend the value of {@code compute.backend} that chooses it
   * @param site where its job directories lie; two registrations may share a {@code backend} name
   *     on different sites
   * @param requires settings refused when missing, before anything is started
   * @param policy what the backend makes of jobs under these settings, known without making it (an
   *     offline {@code gantry-server check} asks it)
   */
  public record Registration(
      String name,
      String backend,
      Site site,
      List<Requirement> requires,
      Function<ServerConfig.Compute, ComputePolicy> policy,
      Constructor constructor) {
    public Registration {
      requires = List.copyOf(requires);
    }
  }

  private static final List<Registration> REGISTERED =
      List.of(
          new Registration(
              "local",
              "local",
              Site.THIS_HOST,
              List.of(),
              LocalBackend::policy,
              LocalBackend::create),
          new Registration(
              "mpirun-hosts",
              "mpirun-hosts",
              Site.THIS_HOST,
              List.of(new Requirement("mpirun.hostfile", c -> c.hostFile() != null)),
              MpirunHostsBackend::policy,
              MpirunHostsBackend::create),
          new Registration(
              "slurm",
              "slurm",
              Site.THIS_HOST,
              List.of(),
              SlurmBackend::policy,
              SlurmBackend::create),
          new Registration(
              "slurm over SSH",
              "slurm",
              Site.CLUSTER_OVER_SSH,
              List.of(),
              ClusterSlurmBackend::policy,
              ClusterSlurmBackend::create));

  private ComputeBackends() {}

  /** Every registered backend. */
  public static List<Registration> registered() {
    return REGISTERED;
  }

  /**
   * Refuses, naming the setting, a {@code compute.backend} no backend is registered under, a {@code
   * compute.ssh-host} beside a backend that does not run on a cluster, and a setting the chosen
   * backend requires but the configuration lacks. Every entry point calls it right after loading
   * the configuration, before anything is started.
   */
  public static void check(ServerConfig config) {
    chosen(config);
  }

  /** What the backend these settings choose makes of jobs, without making the backend. */
  public static ComputePolicy policyFor(ServerConfig config) {
    return chosen(config).policy().apply(config.compute());
  }

  /** The backend the configuration chooses. */
  public static ComputeBackend create(BackendContext context) throws IOException {
    ComputeBackend backend = chosen(context.config()).constructor().create(context);
    log.info("compute backend {}", backend.name());
    return backend;
  }

  // package-private for the registrations test
  static Registration chosen(ServerConfig config) {
    ServerConfig.Compute settings = config.compute();
    List<Registration> named =
        REGISTERED.stream().filter(r -> r.backend().equals(settings.backend())).toList();
    if (named.isEmpty()) {
      throw new ConfigException(
          "compute.backend",
          "'" + settings.backend() + "' is not " + orList(REGISTERED, Registration::backend));
    }
    Site site = Site.of(settings);
    Registration chosen =
        named.stream()
            .filter(r -> r.site() == site)
            .findFirst()
            .orElseThrow(
                () ->
                    site == Site.CLUSTER_OVER_SSH
                        ? new ConfigException(
                            "compute.ssh-host",
                            "needs compute.backend="
                                + orList(onSite(Site.CLUSTER_OVER_SSH), Registration::backend)
                                + ": on a cluster reached over SSH jobs are submitted to its"
                                + " scheduler, and "
                                + settings.backend()
                                + " runs on the server's own host")
                        : new ConfigException(
                            "compute.ssh-host",
                            "is required with compute.backend=" + settings.backend()));
    for (Requirement required : chosen.requires()) {
      if (!required.isSet().test(config)) {
        throw new ConfigException(
            required.key(), "is required with compute.backend=" + settings.backend());
      }
    }
    return chosen;
  }

  private static List<Registration> onSite(Site site) {
    return REGISTERED.stream().filter(r -> r.site() == site).toList();
  }

  /** "a, b or c", each name once, in registration order. */
  private static String orList(List<Registration> registrations, Function<Registration, String> f) {
    List<String> names = registrations.stream().map(f).distinct().toList();
    if (names.size() == 1) {
      return names.get(0);
    }
    return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", "))
        + " or "
        + names.get(names.size() - 1);
  }
}
