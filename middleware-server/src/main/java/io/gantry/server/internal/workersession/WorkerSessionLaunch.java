package io.gantry.server.internal.workersession;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.SandboxConfig;
import io.gantry.dispatcher.workersession.WorkerProgram;
import io.gantry.server.config.NamedApplication;
import io.gantry.server.internal.accounts.JobAccounts;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.plan.ApplicationRegistry;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a worker session's launchers start (docs/task-farms.md, "Sessions"): the same way a task
 * farm's do, {@code gantry-launcher} once per worker through mpirun, in the user's sandbox and OS
 * account, with the dispatcher's address and the session's secret in their environment. The session
 * gets a directory of its own under the staging root (its working directory, {@code /job} in the
 * sandbox, with the workers' standard output and error), given to the account like a job's.
 */
public final class WorkerSessionLaunch {
  /** Where a session's directory is: {@code STAGING_ROOT/worker-session-ID}. */
  private static final String DIRECTORY_PREFIX = "worker-session-";

  private final Path stagingRoot;
  private final Path launcher;
  private final ComputeBackend backend;
  private final JobAccounts accounts;
  private final SandboxConfig sandbox;
  private final ApplicationRegistry applications;

  /**
   * @param launcher gantry-launcher ({@code farm.launcher}); null: the server runs no sessions
   * @param backend starts the launchers (where it runs sessions), never under a job supervisor: a
   *     session's launchers end with the server that holds its dispatcher
   */
  public WorkerSessionLaunch(
      Path stagingRoot,
      Path launcher,
      ComputeBackend backend,
      JobAccounts accounts,
      SandboxConfig sandbox,
      ApplicationRegistry applications) {
    this.stagingRoot = stagingRoot;
    this.launcher = launcher;
    this.backend = backend;
    this.accounts = accounts;
    this.sandbox = sandbox;
    this.applications = applications;
  }

  /**
   * The program a session of {@code user} runs: the named application (its executable and
   * arguments, as the operator configured them), or an executable the sandbox shows with the
   * caller's arguments.
   *
   * @throws JobFailure saying what is wrong with the choice
   */
  public WorkerProgram program(
      String user, String application, String executable, List<String> arguments)
      throws JobFailure {
    boolean named = application != null && !application.isEmpty();
    boolean path = executable != null && !executable.isEmpty();
    if (named == path) {
      throw new JobFailure("name either an application or an executable for the workers");
    }
    if (named) {
      if (!arguments.isEmpty()) {
        throw new JobFailure(
            "a named application runs with the arguments the server configured: give none");
      }
      NamedApplication app = applications.resolve(application, Optional.empty(), user);
      return new WorkerProgram(app.executable(), app.arguments(), Map.of());
    }
    Optional<String> problem = sandbox.executableProblem(executable);
    if (problem.isPresent()) {
      throw new JobFailure(problem.get());
    }
    for (String a : arguments) {
      if (a.indexOf('\0') >= 0) {
        throw new JobFailure("an argument holds a NUL character");
      }
    }
    return new WorkerProgram(executable, arguments, Map.of());
  }

  /** The session's directory. */
  public Path directory(String sessionId) {
    return stagingRoot.resolve(DIRECTORY_PREFIX + sessionId);
  }

  /**
   * Starts {@code workers} launchers for session {@code sessionId} of {@code user}, with {@code
   * environment} (the dispatcher's address and the secret) added to theirs.
   */
  public RunningJob start(
      String sessionId, String user, int workers, Map<String, String> environment)
      throws JobFailure {
    Optional<String> refusal = backend.sessionRefusal();
    if (refusal.isPresent()) {
      throw new JobFailure(refusal.get());
    }
    if (launcher == null) {
      throw new JobFailure(
          "this server runs no worker sessions: it has no gantry-launcher (farm.launcher, or build"
              + " node-programs)");
    }
    JobAccount account = accounts.accountOf(user);
    Path dir = directory(sessionId);
    try {
      LaunchSpec spec =
          LaunchSpec.builder(sessionId, ProgramKind.MPI, launcher.toString())
              .processes(workers)
              .workingDirectory(dir)
              .jobDirectory(dir)
              .output(dir.resolve("workers.out"), dir.resolve("workers.err"))
              .independentRanks(true)
              .build()
              .withAccount(account)
              .withEnvironment(environment);
      return backend.startSessionWorkers(dir, spec, account);
    } catch (LaunchException | IOException | IllegalArgumentException e) {
      throw new JobFailure("cannot start the session's workers: " + e.getMessage(), e);
    }
  }

  /** Removes an ended session's directory. */
  public void remove(String sessionId) throws IOException {
    Path dir = directory(sessionId);
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p); // a link is removed, never followed (walk does not follow)
      }
    }
  }
}
