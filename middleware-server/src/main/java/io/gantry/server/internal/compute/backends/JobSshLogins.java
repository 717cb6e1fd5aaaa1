package io.gantry.server.internal.compute.backends;

import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import io.gantry.dispatcher.SshLaunchAgent;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.sshca.JobCertificates;
import io.gantry.server.internal.sshca.JobCertificates.JobCredential;
import io.gantry.server.internal.sshca.UserCertificateAuthority;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * mpirun-hosts with {@code compute.user-certificates}: each job's ssh logs in to the hosts as the
 * job's own OS account, with a key pair and certificate made for that job ({@link
 * JobCertificates}), issued just before its launchers start and destroyed when they end. The
 * operator's {@code mpirun.ssh-user} and {@code mpirun.ssh-identity} are not used.
 */
final class JobSshLogins {
  private static final Logger LOG = Logger.getLogger(JobSshLogins.class.getName());

  private final JobCertificates certificates;
  private final ServerConfig.Compute compute;
  private final Duration defaultWallTime;
  private final Map<String, JobCredential> issued = new ConcurrentHashMap<>();

  private JobSshLogins(
      JobCertificates certificates, ServerConfig.Compute compute, Duration defaultWallTime) {
    this.certificates = certificates;
    this.compute = compute;
    this.defaultWallTime = defaultWallTime;
  }

  /** The logins of {@code config}: its CA (made if absent) and {@code data.dir/keys/job-ssh}. */
  static JobSshLogins of(ServerConfig config) {
    JobCertificates certificates = certificatesOf(config);
    // keys of jobs that ended while no server ran: a running job's certificate is still valid
    java.util.List<String> swept = certificates.sweepExpired(java.time.Instant.now());
    if (!swept.isEmpty()) {
      LOG.info("destroyed the expired SSH keys of jobs " + swept);
    }
    return new JobSshLogins(certificates, config.compute(), config.defaultWallTime());
  }

  /**
   * The job certificates of {@code config}: its CA (made if absent), {@code data.dir/keys/job-ssh}.
   */
  static JobCertificates certificatesOf(ServerConfig config) {
    try {
      java.nio.file.Path keys = config.dataDirectory().resolve("keys");
      ServerConfig.SshCertificates settings = config.sshCertificates();
      return new JobCertificates(
          UserCertificateAuthority.loadOrCreate(keys),
          keys.resolve("job-ssh"),
          settings.margin(),
          settings.sourceAddresses());
    } catch (IOException e) {
      throw new UncheckedIOException("the SSH user CA could not be read or made", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the SSH user CA could not be read or made", e);
    }
  }

  /**
   * Issues the job's certificate for the account {@code launchers} run as, then launches them with
   * it; the key is destroyed when they end, or at once if they do not start.
   */
  RunningJob launch(String account, LaunchSpec launchers, Launch launch) throws LaunchException {
    String jobId = launchers.jobId();
    Duration wallTime =
        launchers.wallTimeLimit() == null ? defaultWallTime : launchers.wallTimeLimit();
    try {
      issued.put(jobId, certificates.issue(jobId, account, wallTime));
    } catch (IOException | GeneralSecurityException e) {
      throw new LaunchException(
          "job " + jobId + ": could not issue its SSH certificate: " + e.getMessage(), e);
    }
    RunningJob running;
    try {
      running = launch.start();
    } catch (LaunchException | RuntimeException e) {
      destroy(jobId);
      throw e;
    }
    whenEnded(running);
    return running;
  }

  /** Destroys the job's key when {@code running} ends (a job found again after a restart too). */
  void whenEnded(RunningJob running) {
    var unused = running.onExit().whenComplete((outcome, failure) -> destroy(running.jobId()));
  }

  /** The ssh settings of a job whose certificate was issued; refuses any other. */
  SshLaunchAgent agentOf(LaunchSpec spec) {
    JobCredential credential = issued.get(spec.jobId());
    if (credential == null) {
      throw new IllegalArgumentException(
          "job " + spec.jobId() + " has no SSH certificate: it cannot reach the hosts");
    }
    return new SshLaunchAgent(
        compute.sshAgent(),
        credential.identity(),
        compute.sshKnownHosts(),
        credential.account(),
        compute.sshConfig());
  }

  /** Destroys job {@code jobId}'s key and certificate, if it has any. */
  void destroy(String jobId) {
    issued.remove(jobId);
    try {
      certificates.destroy(jobId);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "job " + jobId + ": " + e.getMessage(), e);
    }
  }

  /** Starts a job's launchers once its certificate is there. */
  @FunctionalInterface
  interface Launch {
    RunningJob start() throws LaunchException;
  }
}
