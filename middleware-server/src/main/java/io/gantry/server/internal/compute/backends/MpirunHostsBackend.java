package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.DispatcherConfig;
import io.gantry.dispatcher.HostsMpirunLauncher;
import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.Launcher;
import io.gantry.dispatcher.ProgramKind;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.SshLaunchAgent;
import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.BackendContext;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputePolicy;
import io.gantry.server.internal.compute.ProgramStart;
import io.gantry.server.internal.scheduler.JobFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code compute.backend=mpirun-hosts}: as {@code compute.backend=local}, but MPI programs run
 * across the hosts of {@code mpirun.hostfile}, mpirun starting its daemons over ssh ({@code
 * mpirun.ssh-*}). The operator's hosts decide where a job runs: a job's own host file is ignored,
 * so that its host names never reach ssh with the operator's key. The hosts must share the job
 * directories at the same paths; every rank starts in the job sandbox on its host ({@link
 * NodeSandboxes}).
 *
 * <p>With {@code compute.user-certificates}, each job logs in to the hosts as its own OS account
 * with a certificate of its own ({@link JobSshLogins}) instead of as {@code mpirun.ssh-user}.
 */
public final class MpirunHostsBackend extends MpirunBackend {
  /** Per-job logins, or null where every job logs in as {@code mpirun.ssh-user}. */
  private final JobSshLogins logins;

  private MpirunHostsBackend(BackendContext context, JobSshLogins logins) {
    super(
        "mpirun-hosts",
        policy(context.config().compute()),
        context,
        dispatch -> hostsLauncher(context.config(), dispatch, logins));
    this.logins = logins;
  }

  /** What this backend makes of jobs (the registration's policy). */
  public static ComputePolicy policy(ServerConfig.Compute settings) {
    return new ComputePolicy(
        "mpirun-hosts", false, false, false, false, null, null, Map.of(), false);
  }

  /** The registration's constructor. */
  public static ComputeBackend create(BackendContext context) {
    ServerConfig config = context.config();
    return new MpirunHostsBackend(
        context, config.sshCertificates().enabled() ? JobSshLogins.of(config) : null);
  }

  @Override
  public RunningJob start(ProgramStart job, JobAccount account) throws LaunchException {
    if (logins == null || job.launch().kind() != ProgramKind.MPI) {
      return super.start(job, account);
    }
    return logins.launch(account.name(), job.launch(), () -> super.start(job, account));
  }

  @Override
  public Optional<RunningJob> reattach(String jobId, String reference) throws JobFailure {
    Optional<RunningJob> found = super.reattach(jobId, reference);
    if (logins != null) {
      // its mpirun's ssh connections are up: the key is destroyed when the job ends, or now
      found.ifPresentOrElse(logins::whenEnded, () -> logins.destroy(jobId));
    }
    return found;
  }

  @Override
  public RunningJob startFarmLaunchers(ProgramStart job, LaunchSpec launchers, JobAccount account)
      throws LaunchException {
    if (logins == null) {
      return super.startFarmLaunchers(job, launchers, account);
    }
    return logins.launch(
        account.name(), launchers, () -> super.startFarmLaunchers(job, launchers, account));
  }

  @Override
  public RunningJob startSessionWorkers(Path directory, LaunchSpec launchers, JobAccount account)
      throws LaunchException, IOException {
    if (logins == null) {
      return super.startSessionWorkers(directory, launchers, account);
    }
    try {
      return logins.launch(
          account.name(),
          launchers,
          () -> {
            try {
              return super.startSessionWorkers(directory, launchers, account);
            } catch (IOException e) {
              throw new LaunchException(e.getMessage(), e);
            }
          });
    } catch (LaunchException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e;
    }
  }

  @Override
  public void forget(String jobId) {
    super.forget(jobId);
    if (logins != null) {
      logins.destroy(jobId);
    }
  }

  private static Launcher hostsLauncher(
      ServerConfig config, DispatcherConfig dispatch, JobSshLogins logins) {
    ServerConfig.Compute c = config.compute();
    try {
      if (logins != null) {
        return new HostsMpirunLauncher(
            dispatch, config.hostFile(), logins::agentOf, NodeSandboxes.of(config, dispatch));
      }
      return new HostsMpirunLauncher(
          dispatch,
          config.hostFile(),
          new SshLaunchAgent(
              c.sshAgent(), c.sshIdentity(), c.sshKnownHosts(), c.sshUser(), c.sshConfig()),
          NodeSandboxes.of(config, dispatch));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("mpirun.hostfile", e.getMessage());
    }
  }
}
