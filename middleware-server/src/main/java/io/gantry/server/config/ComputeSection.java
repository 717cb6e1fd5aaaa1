package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * compute.backend and the settings of the mpirun-hosts and slurm backends (configuration.md,
 * "Compute backends"). The backend's name is read here but not judged: which names exist and which
 * settings each backend requires belong to the backends' registrations, so that a new backend
 * changes nothing in the configuration.
 */
final class ComputeSection {
  private ComputeSection() {}

  private static final SettingType<String> SLURM_NAME =
      SettingType.word("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", "a plain Slurm name");

  static final Setting<String> BACKEND =
      Setting.of("compute.backend", SettingType.text())
          .byDefault("local")
          .means("where jobs run: local, mpirun-hosts or slurm");
  static final Setting<String> SSH_AGENT =
      Setting.of("mpirun.ssh-agent", SettingType.text())
          .byDefault("ssh")
          .means("mpirun-hosts: the ssh program mpirun starts its daemons with");
  static final Setting<Path> SSH_IDENTITY =
      Setting.of("mpirun.ssh-identity", SettingType.path())
          .shownDefault("none (ssh's default)")
          .means("mpirun-hosts: private key file");
  static final Setting<Path> SSH_KNOWN_HOSTS =
      Setting.of("mpirun.ssh-known-hosts", SettingType.path())
          .shownDefault("none (ssh's default)")
          .means("mpirun-hosts: known_hosts file, checked strictly");
  static final Setting<String> SSH_USER =
      Setting.of("mpirun.ssh-user", SettingType.text())
          .shownDefault("none (the server's account)")
          .means("mpirun-hosts: remote account");
  static final Setting<Path> SSH_CONFIG =
      Setting.of("mpirun.ssh-config", SettingType.path()).means("mpirun-hosts: an ssh_config file");
  static final Setting<Path> SLURM_BIN_DIR =
      Setting.of("slurm.bin-dir", SettingType.path())
          .shownDefault("none (`PATH`)")
          .means("directory of sbatch, scontrol, scancel, sacct");
  static final Setting<Path> SLURM_CONF =
      Setting.of("slurm.conf", SettingType.path()).means("SLURM_CONF given to the Slurm commands");
  static final Setting<Duration> SLURM_POLL_INTERVAL =
      Setting.of("slurm.poll-interval", SettingType.duration())
          .byDefault("PT5S")
          .shownDefault("`PT5S` (at least 1 s)")
          .means("how often each running job's state is asked of Slurm");
  static final Setting<Duration> SLURM_COMMAND_TIMEOUT =
      Setting.of("slurm.command-timeout", SettingType.duration())
          .byDefault("PT30S")
          .means("how long one Slurm command may take");
  static final Setting<String> SLURM_MPIRUN =
      Setting.of("slurm.mpirun", SettingType.text())
          .byDefault("mpirun")
          .means("the mpirun on the compute nodes");
  static final Setting<String> SLURM_PARTITION =
      Setting.of("slurm.partition", SLURM_NAME)
          .shownDefault("none (Slurm's default)")
          .means("partition of every job that names none");
  static final Setting<String> SLURM_ACCOUNT =
      Setting.of("slurm.account", SLURM_NAME).means("Slurm account jobs are charged to");
  static final Setting<String> SLURM_USER_PARTITION =
      Setting.of("slurm.user.NAME.partition", SLURM_NAME)
          .namedBy("[A-Za-z0-9][A-Za-z0-9_.@-]*")
          .means("partition of user NAME's jobs that name none");
  static final Setting<String> SLURM_USER_ACCOUNT =
      Setting.of("slurm.user.NAME.account", SLURM_NAME)
          .namedBy("[A-Za-z0-9][A-Za-z0-9_.@-]*")
          .means("Slurm account of user NAME's jobs");

  static final Setting<String> CLUSTER_HOST =
      Setting.of("compute.ssh-host", SettingType.text())
          .shownDefault("none (job directories on this host)")
          .means("the cluster's login node: job directories on its file system, Slurm over SSH");
  static final Setting<Integer> CLUSTER_PORT =
      Setting.of("compute.ssh-port", SettingType.integer(1, 65535))
          .byDefault("22")
          .means("SSH port of compute.ssh-host");
  static final Setting<String> CLUSTER_USER =
      Setting.of("compute.ssh-user", SettingType.text())
          .shownDefault("none (required with compute.ssh-host)")
          .means("the cluster account the server logs in as, and every job runs as");
  static final Setting<String> CLUSTER_IDENTITY =
      Setting.of("compute.ssh-identity", SettingType.text())
          .shownDefault("none (required with compute.ssh-host)")
          .means("name of the SSH identity (identity.NAME.*) the server logs in with");
  static final Setting<Path> CLUSTER_KNOWN_HOSTS =
      Setting.of("compute.ssh-known-hosts", SettingType.path())
          .shownDefault("`ssh.known-hosts`")
          .means("known_hosts file with the login node's host key, checked strictly");
  static final Setting<String> CLUSTER_ROOT =
      Setting.of("compute.root", SettingType.text())
          .shownDefault("none (required with compute.ssh-host)")
          .means("absolute path of the job directories' root on the cluster's shared file system");

  static ServerConfig.Compute read(SettingValues values) {
    Duration poll = values.get(SLURM_POLL_INTERVAL);
    if (poll.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new ConfigException(
          SLURM_POLL_INTERVAL.key(), "must be at least 1 second, so that slurmctld is not flooded");
    }
    Map<String, ServerConfig.SlurmUser> users = new LinkedHashMap<>();
    for (String user : values.names(SLURM_USER_PARTITION, SLURM_USER_ACCOUNT)) {
      users.put(
          user,
          new ServerConfig.SlurmUser(
              values.get(SLURM_USER_PARTITION, user), values.get(SLURM_USER_ACCOUNT, user)));
    }
    return new ServerConfig.Compute(
        values.get(BACKEND),
        values.get(SSH_AGENT),
        values.get(SSH_IDENTITY),
        values.get(SSH_KNOWN_HOSTS),
        values.get(SSH_USER),
        values.get(SSH_CONFIG),
        values.get(SLURM_BIN_DIR),
        values.get(SLURM_CONF),
        poll,
        values.get(SLURM_COMMAND_TIMEOUT),
        values.get(SLURM_MPIRUN),
        values.get(SLURM_PARTITION),
        values.get(SLURM_ACCOUNT),
        Map.copyOf(users),
        cluster(values));
  }

  /**
   * The cluster reached over SSH, or null without {@code compute.ssh-host}. Checked here: the
   * account, identity and root are required, the root is an absolute plain path, and {@code
   * jobs.supervisor} (a supervisor of local jobs) is refused. Which backends run on a cluster is
   * theirs to say (their registrations in the backend factory).
   */
  private static ServerConfig.Cluster cluster(SettingValues values) {
    if (!values.isSet(CLUSTER_HOST)) {
      return null;
    }
    for (Setting<?> required : java.util.List.of(CLUSTER_USER, CLUSTER_IDENTITY, CLUSTER_ROOT)) {
      if (!values.isSet(required)) {
        throw new ConfigException(required.key(), "is required with compute.ssh-host");
      }
    }
    if (values.isSet(SandboxSection.SUPERVISOR)) {
      // gantry-stepd keeps jobs of this host alive; a cluster's jobs live in its Slurm, which
      // already keeps them while the server restarts, so the setting would silently do nothing
      throw new ConfigException(
          SandboxSection.SUPERVISOR.key(),
          "is not used with compute.ssh-host: every job runs in the cluster's Slurm, which keeps"
              + " it running while the server restarts; remove jobs.supervisor");
    }
    String root = values.get(CLUSTER_ROOT);
    if (!root.startsWith("/") || !root.matches("[A-Za-z0-9_./+@-]+") || root.contains("/..")) {
      throw new ConfigException(
          CLUSTER_ROOT.key(),
          "'" + root + "' must be an absolute path of letters, digits and _ . / + @ - (no '..')");
    }
    Path knownHosts =
        values
            .find(CLUSTER_KNOWN_HOSTS)
            .orElse(
                values
                    .find(ServerSection.SSH_KNOWN_HOSTS)
                    .orElse(
                        ServerSection.dataDirectory(values).resolve("ssh").resolve("known_hosts")));
    return new ServerConfig.Cluster(
        values.get(CLUSTER_HOST),
        values.get(CLUSTER_PORT),
        values.get(CLUSTER_USER),
        values.get(CLUSTER_IDENTITY),
        knownHosts,
        root.length() > 1 && root.endsWith("/") ? root.substring(0, root.length() - 1) : root);
  }
}
