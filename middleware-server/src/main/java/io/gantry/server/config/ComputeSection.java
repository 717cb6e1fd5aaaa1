package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * compute.backend and the settings of the mpirun-hosts and slurm backends (configuration.md,
 * "Compute backends").
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

  static ServerConfig.Compute read(SettingValues values) {
    String name = values.get(BACKEND);
    ServerConfig.Backend backend =
        Arrays.stream(ServerConfig.Backend.values())
            .filter(b -> b.setting().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new ConfigException(
                        BACKEND.key(), "'" + name + "' is not local, mpirun-hosts or slurm"));
    if (backend == ServerConfig.Backend.MPIRUN_HOSTS
        && !values.isSet(ServerSection.MPIRUN_HOSTFILE)) {
      throw new ConfigException(
          ServerSection.MPIRUN_HOSTFILE.key(), "is required with compute.backend=mpirun-hosts");
    }
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
        backend,
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
        Map.copyOf(users));
  }
}
