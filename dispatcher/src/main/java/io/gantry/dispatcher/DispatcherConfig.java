package io.gantry.dispatcher;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Operator settings of the local dispatcher, checked when loaded.
 *
 * @param mpirun the {@code mpirun} to run: an absolute path, or a name looked up on {@code PATH}
 * @param defaultMpirunOptions options put before every job's own (trusted: they come from the
 *     operator, not from job descriptions, so {@link MpirunOptionPolicy} does not apply)
 * @param oversubscribe pass {@code --oversubscribe}, allowing more ranks than cores
 * @param killGracePeriod how long a job gets between SIGTERM and SIGKILL when the wall-time limit
 *     runs out
 * @param inheritedEnvironment names of server environment variables that launched programs see; all
 *     others are withheld, because the server's environment may hold credentials. Names the sandbox
 *     sets itself or that steer the loader (PATH, HOME, LD_*, ...) are never inherited.
 * @param sandbox how jobs are confined (bubblewrap, setpriv, the executable roots)
 * @param detached the supervisor local jobs run under so that they outlive the server, or null:
 *     they run as the server's children and end with it
 */
public record DispatcherConfig(
    String mpirun,
    List<String> defaultMpirunOptions,
    boolean oversubscribe,
    Duration killGracePeriod,
    List<String> inheritedEnvironment,
    SandboxConfig sandbox,
    DetachedSupervision detached) {

  /** The locale; PATH, HOME and TMPDIR are the sandbox's own. */
  public static final List<String> DEFAULT_INHERITED_ENVIRONMENT = List.of("LANG", "LC_ALL");

  public DispatcherConfig {
    if (mpirun == null || mpirun.isBlank()) {
      throw new IllegalArgumentException("mpirun must name the mpirun program");
    }
    defaultMpirunOptions = List.copyOf(defaultMpirunOptions);
    for (String option : defaultMpirunOptions) {
      if (option.indexOf('\0') >= 0 || option.indexOf('\n') >= 0) {
        throw new IllegalArgumentException(
            "defaultMpirunOptions: '" + option.replace('\0', ' ') + "' contains a NUL or newline");
      }
    }
    Objects.requireNonNull(killGracePeriod, "killGracePeriod");
    if (killGracePeriod.isNegative()) {
      throw new IllegalArgumentException(
          "killGracePeriod cannot be negative, was " + killGracePeriod);
    }
    inheritedEnvironment = List.copyOf(inheritedEnvironment);
    Objects.requireNonNull(sandbox, "sandbox");
  }

  /** The settings with local jobs supervised by the server itself. */
  public DispatcherConfig(
      String mpirun,
      List<String> defaultMpirunOptions,
      boolean oversubscribe,
      Duration killGracePeriod,
      List<String> inheritedEnvironment,
      SandboxConfig sandbox) {
    this(
        mpirun,
        defaultMpirunOptions,
        oversubscribe,
        killGracePeriod,
        inheritedEnvironment,
        sandbox,
        null);
  }

  /** The settings with the default sandbox (no executable roots beyond /usr). */
  public DispatcherConfig(
      String mpirun,
      List<String> defaultMpirunOptions,
      boolean oversubscribe,
      Duration killGracePeriod,
      List<String> inheritedEnvironment) {
    this(
        mpirun,
        defaultMpirunOptions,
        oversubscribe,
        killGracePeriod,
        inheritedEnvironment,
        SandboxConfig.defaults());
  }

  /** {@code mpirun} from {@code PATH}, no oversubscription, 10 s grace, the default inheritance. */
  public static DispatcherConfig defaults() {
    return new DispatcherConfig(
        "mpirun", List.of(), false, Duration.ofSeconds(10), DEFAULT_INHERITED_ENVIRONMENT);
  }

  public DispatcherConfig withOversubscribe(boolean value) {
    return new DispatcherConfig(
        mpirun,
        defaultMpirunOptions,
        value,
        killGracePeriod,
        inheritedEnvironment,
        sandbox,
        detached);
  }

  public DispatcherConfig withKillGracePeriod(Duration grace) {
    return new DispatcherConfig(
        mpirun,
        defaultMpirunOptions,
        oversubscribe,
        grace,
        inheritedEnvironment,
        sandbox,
        detached);
  }

  public DispatcherConfig withSandbox(SandboxConfig value) {
    return new DispatcherConfig(
        mpirun,
        defaultMpirunOptions,
        oversubscribe,
        killGracePeriod,
        inheritedEnvironment,
        value,
        detached);
  }

  /** Local jobs under {@code value}'s supervisor, outliving the server; null: the server's own. */
  public DispatcherConfig withDetachedSupervision(DetachedSupervision value) {
    return new DispatcherConfig(
        mpirun,
        defaultMpirunOptions,
        oversubscribe,
        killGracePeriod,
        inheritedEnvironment,
        sandbox,
        value);
  }
}
