package io.gantry.dispatcher.slurm;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.MpirunCommand;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.internal.RemoteEnvironment;
import io.gantry.dispatcher.remote.ClusterShell;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs jobs through Slurm: {@code sbatch --parsable} submits the fixed {@link BatchScript} with the
 * job's program as its arguments ({@link SbatchCommand}); an MPI job's program is {@code mpirun}
 * inside the allocation, which learns its nodes from Slurm. The job is followed by polling ({@link
 * SlurmJob}) and killed with {@code scancel}. Jobs submitted by an earlier server process are
 * followed again with {@link #reattach}.
 */
public final class SlurmLauncher implements Launcher, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SlurmLauncher.class);

  /** {@code sbatch --parsable} prints "ID" or "ID;CLUSTER". */
  private static final Pattern PARSABLE = Pattern.compile("(\\d+)(;\\S+)?");

  private final SlurmConfig config;
  private final MpirunCommand mpirun;

  /** Who runs Slurm's commands for a job (by job id): one client, or each job's own login. */
  private final Function<String, SlurmClient> clients;

  private final Path script;

  /** The cluster account of a Slurm reached over SSH; null for Slurm on this host. */
  private final String remoteUser;

  /** Over SSH, whether each job logs in as its own account (never root) rather than remoteUser. */
  private final boolean jobLogins;

  private final ScheduledExecutorService scheduler =
      Executors.newScheduledThreadPool(
          2,
          r -> {
            Thread t = new Thread(r, "gantry-slurm-poll");
            t.setDaemon(true);
            return t;
          });

  /** Installs the batch script into the configured directory. */
  public SlurmLauncher(SlurmConfig config) throws IOException {
    this(config, localClient(config), BatchScript.install(config.scriptDirectory()), null, false);
  }

  /**
   * Slurm on a cluster reached over SSH: every client command runs on the login node through {@code
   * shell}, and the batch script is installed there, in the configured script directory (a path of
   * the cluster's file system).
   *
   * @param remoteUser the account the SSH login and so every job runs under on the cluster
   */
  public static SlurmLauncher overSsh(SlurmConfig config, ClusterShell shell, String remoteUser)
      throws IOException {
    String directory = config.scriptDirectory().toString();
    shell.install(directory, BatchScript.NAME, BatchScript.TEXT, 0755);
    SlurmClient client = new SshSlurmClient(config, shell);
    return new SlurmLauncher(
        config,
        jobId -> client,
        config.scriptDirectory().resolve(BatchScript.NAME),
        remoteUser,
        false);
  }

  /**
   * Slurm on a cluster reached over SSH where each job logs in as its owner's own account: {@code
   * installer} (the operator's account) installs the batch script, readable and executable by every
   * account; sbatch, scontrol, sacct and scancel of a job run over {@code jobShells}' shell for its
   * id, as that job's account, so Slurm runs the job as it.
   */
  public static SlurmLauncher overSshPerJob(
      SlurmConfig config,
      ClusterShell installer,
      String installerUser,
      Function<String, ClusterShell> jobShells)
      throws IOException {
    String directory = config.scriptDirectory().toString();
    installer.install(directory, BatchScript.NAME, BatchScript.TEXT, 0755);
    return new SlurmLauncher(
        config,
        jobId -> new SshSlurmClient(config, jobShells.apply(jobId)),
        config.scriptDirectory().resolve(BatchScript.NAME),
        installerUser,
        true);
  }

  private SlurmLauncher(
      SlurmConfig config,
      Function<String, SlurmClient> clients,
      Path script,
      String remoteUser,
      boolean jobLogins) {
    this.config = config;
    this.mpirun =
        new MpirunCommand(
            new DispatcherConfig(
                config.mpirun(),
                List.of(),
                false,
                Duration.ofSeconds(10),
                config.inheritedEnvironment()));
    this.clients = clients;
    this.script = script;
    this.remoteUser = remoteUser;
    this.jobLogins = jobLogins;
  }

  private static Function<String, SlurmClient> localClient(SlurmConfig config) {
    SlurmClient client =
        new LocalSlurmClient(
            config,
            RemoteEnvironment.build(
                config.inheritedEnvironment(), System.getenv(), false, Map.of()));
    return jobId -> client;
  }

  @Override
  public RunningJob launch(LaunchSpec spec) throws LaunchException {
    return submit(spec, BatchResources.none(), null, id -> {});
  }

  /**
   * Submits the job and starts following it.
   *
   * @param runAs the OS account Slurm runs it under (root's {@code sbatch --uid}); null: the
   *     server's own account
   * @param submitted told the Slurm job id as soon as sbatch gave it, before anything else, so that
   *     the caller can store it (a restarted server re-attaches by it)
   */
  public RunningJob submit(
      LaunchSpec spec,
      BatchResources resources,
      SbatchCommand.RunAs runAs,
      Consumer<String> submitted)
      throws LaunchException {
    if (spec.hostFile() != null) {
      throw new IllegalArgumentException(
          "job "
              + spec.jobId()
              + ": with Slurm, Slurm chooses the hosts; a host file does not apply");
    }
    if (config.nodeSandbox() != null) {
      // the batch script and mpirun stay outside; every rank starts in the sandbox on its node
      if (spec.kind() == ProgramKind.MPI) {
        mpirun.argv(spec); // checks the job's own options and environment names first
      } else if (spec.executable().startsWith("-")) {
        throw new IllegalArgumentException(
            "job " + spec.jobId() + ": executable must not start with '-'");
      }
      spec = config.nodeSandbox().wrap(spec);
    }
    List<String> program = new ArrayList<>();
    if (spec.kind() == ProgramKind.MPI) {
      program.addAll(mpirun.argv(spec));
    } else {
      if (spec.executable().startsWith("-")) {
        throw new IllegalArgumentException(
            "job " + spec.jobId() + ": executable must not start with '-'");
      }
      program.add(spec.executable());
      program.addAll(spec.arguments());
    }
    if (remoteUser != null && runAs != null) {
      throw new IllegalArgumentException(
          "job "
              + spec.jobId()
              + ": over SSH every job runs as the cluster account "
              + remoteUser
              + "; it cannot be given another account");
    }
    // On this host the job's environment starts from the server's inherited names; on a cluster
    // from the login node's own environment, which sbatch exports with the job's variables.
    Map<String, String> env =
        remoteUser == null
            ? RemoteEnvironment.build(
                config.inheritedEnvironment(),
                System.getenv(),
                runAs == null && RemoteEnvironment.serverIsRoot(),
                spec.environment())
            : RemoteEnvironment.build(
                List.of(), Map.of(), !jobLogins && "root".equals(remoteUser), spec.environment());
    List<String> argv = SbatchCommand.argv("sbatch", spec, resources, script, runAs, program);
    SlurmClient.Result result;
    try {
      // sbatch passes its own environment to the job (--export=ALL): the job's variables travel
      // there, not on any command line.
      result = clients.apply(spec.jobId()).submit(argv.subList(1, argv.size()), env);
    } catch (IOException e) {
      throw new LaunchException(
          "job " + spec.jobId() + ": could not submit to Slurm: " + e.getMessage(), e);
    }
    var id = PARSABLE.matcher(result.stdout().strip());
    if (!result.succeeded() || !id.matches()) {
      throw new LaunchException(
          "job "
              + spec.jobId()
              + ": sbatch refused the job: "
              + (result.stderr().isBlank() ? result.stdout().strip() : result.stderr().strip()));
    }
    String slurmId = id.group(1);
    log.info("job {}: submitted to Slurm as job {}: {}", spec.jobId(), slurmId, argv);
    submitted.accept(slurmId);
    return follow(spec.jobId(), slurmId, Instant.now());
  }

  /**
   * Follows a job an earlier server process submitted, from whatever state Slurm now reports (a job
   * that ended meanwhile is found in the completion log).
   */
  public RunningJob reattach(String jobId, String slurmId) {
    if (!slurmId.matches("\\d{1,18}")) {
      throw new IllegalArgumentException(
          "job " + jobId + ": '" + slurmId + "' is not a Slurm job id");
    }
    log.info("job {}: following Slurm job {} again", jobId, slurmId);
    return follow(jobId, slurmId, Instant.now());
  }

  private RunningJob follow(String jobId, String slurmId, Instant startedAt) {
    SlurmJob job = new SlurmJob(jobId, slurmId, clients.apply(jobId), startedAt);
    job.follow(scheduler, config.pollInterval());
    return job;
  }

  /** Stops polling; jobs keep running in Slurm, and a later server re-attaches to them. */
  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
