package io.gantry.server.internal.compute.backends;

import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.sshca.JobCertificates;
import io.gantry.staging.ClusterConnection;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.SshCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A cluster reached over SSH with {@code compute.user-certificates}: every job logs in to the login
 * node as its owner's own account, on a connection of its own, with a key pair and certificate from
 * the server's SSH user CA made at each (re)connection and held in memory only (never a file, an
 * argument or a log). Its job directory is {@code compute.root/ACCOUNT/JOB}: the account is read
 * from the path the planner chose, so staging, Slurm's commands and the server's readers all act as
 * the account that owns the directory.
 *
 * <p>A certificate is valid for {@code ssh-ca.validity-margin} from its login: sshd checks it only
 * when a connection logs in, and a connection that drops (or a server that restarts and follows the
 * job again) logs in with a new one. A job directory directly under {@code compute.root} (a job
 * planned before certificates were turned on) is reached as {@code compute.ssh-user}, as it was
 * made.
 */
final class ClusterLogins implements AutoCloseable {
  /** Account names a job directory's path may carry (POSIX portable user names). */
  private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

  private final ServerConfig.Cluster settings;
  private final GatewayOptions options;
  private final JobCertificates certificates;
  private final ClusterConnection operator;
  private final Path root;
  private final Map<String, ClusterConnection> jobs = new ConcurrentHashMap<>();
  private final Map<String, ClusterConnection> readers = new ConcurrentHashMap<>();

  ClusterLogins(
      ServerConfig.Cluster settings,
      GatewayOptions options,
      JobCertificates certificates,
      ClusterConnection operator) {
    this.settings = settings;
    this.options = options;
    this.certificates = certificates;
    this.operator = operator;
    this.root = Path.of(settings.root());
  }

  /** Where a job directory lies relative to {@code compute.root}: its account, or none. */
  private record Place(String account, String jobId) {}

  private Place place(Path jobDirectory) throws IOException {
    Path dir = jobDirectory.normalize();
    if (!dir.startsWith(root) || dir.equals(root)) {
      throw new IOException(jobDirectory + " is not a job directory under compute.root " + root);
    }
    Path relative = root.relativize(dir);
    if (relative.getNameCount() == 1) {
      return new Place(null, relative.toString());
    }
    String account = relative.getName(0).toString();
    if (relative.getNameCount() != 2 || !ACCOUNT.matcher(account).matches()) {
      throw new IOException(
          jobDirectory + " is not compute.root/ACCOUNT/JOB under compute.root " + root);
    }
    return new Place(account, relative.getName(1).toString());
  }

  /**
   * The connection that acts on {@code jobDirectory}: its job's own (made now if it has none yet),
   * or {@code compute.ssh-user}'s for a directory directly under the root. From then on Slurm's
   * commands for the job ({@link #ofJob}) use it too.
   */
  ClusterConnection ofDirectory(Path jobDirectory) throws IOException {
    Place p = place(jobDirectory);
    if (p.account() == null) {
      jobs.putIfAbsent(p.jobId(), operator);
      return operator;
    }
    return jobs.computeIfAbsent(
        p.jobId(), id -> connection(p.account(), JobCertificates.keyId(id, p.account())));
  }

  /** Whether {@code jobDirectory} is reached as its job's account (not compute.ssh-user). */
  boolean ownAccount(Path jobDirectory) throws IOException {
    return place(jobDirectory).account() != null;
  }

  /**
   * The connection of job {@code jobId}, for Slurm's commands: known once its directory was used
   * ({@link #ofDirectory}); a job with none is refused rather than run as another account.
   */
  ClusterConnection ofJob(String jobId) throws IOException {
    ClusterConnection c = jobs.get(jobId);
    if (c == null) {
      throw new IOException(
          "job " + jobId + " has no login on the cluster: its directory was not prepared here");
    }
    return c;
  }

  /**
   * The server's readers (getJobOutput, getJobFile, the web pages): as the directory's account, on
   * one connection per account with certificates of their own ("gantry reader"), so that a job's
   * files can be read after its own login ended.
   */
  ClusterConnection reader(Path jobDirectory) {
    try {
      Place p = place(jobDirectory);
      if (p.account() == null) {
        return operator;
      }
      return readers.computeIfAbsent(p.account(), a -> connection(a, "gantry reader account " + a));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Why a job of {@code account} could not log in to the cluster, or empty: the account's reader
   * login (kept for the readers afterwards) logs in now, with a certificate of the server's CA.
   */
  java.util.Optional<String> reachProblem(String account) {
    if (!ACCOUNT.matcher(account).matches()) {
      return java.util.Optional.of("'" + account + "' is not an account name the cluster takes");
    }
    try {
      readers.computeIfAbsent(account, a -> connection(a, "gantry reader account " + a)).session();
      return java.util.Optional.empty();
    } catch (IOException | RuntimeException e) {
      return java.util.Optional.of(
          "the job's OS account "
              + account
              + " cannot log in to the cluster "
              + settings.host()
              + ":"
              + settings.port()
              + " with a certificate of the server's SSH user CA ("
              + e.getMessage()
              + "): the account must exist there, and its sshd must trust the CA for it"
              + " (TrustedUserCAKeys, AllowUsers)");
    }
  }

  /** The job is final: its connection is closed (a later use logs in again). */
  void release(String jobId) {
    ClusterConnection c = jobs.remove(jobId);
    if (c != null && c != operator) {
      c.close();
    }
  }

  private ClusterConnection connection(String account, String keyId) {
    return new ClusterConnection(
        account, settings.host(), settings.port(), () -> credentials(account, keyId), options);
  }

  /** A fresh key and certificate at each login; the key's bytes are the caller's to overwrite. */
  private SshCredentials credentials(String account, String keyId) {
    try {
      JobCertificates.Login login = certificates.login(keyId, account, Duration.ZERO);
      try {
        return SshCredentials.certified(login.privateKey(), login.certificate());
      } finally {
        Arrays.fill(login.privateKey(), (byte) 0);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not issue an SSH certificate for " + account, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("could not issue an SSH certificate for " + account, e);
    }
  }

  @Override
  public void close() {
    jobs.values().stream().filter(c -> c != operator).forEach(ClusterConnection::close);
    readers.values().forEach(ClusterConnection::close);
    jobs.clear();
    readers.clear();
  }
}
