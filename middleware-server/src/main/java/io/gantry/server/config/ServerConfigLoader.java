package io.gantry.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Reads the configuration file (Java properties, UTF-8) and command-line overrides into a checked
 * {@link ServerConfig}. Only the keys of {@link Settings} are accepted: a misspelt setting silently
 * ignored is how a production server ends up on defaults, so it is refused, naming the nearest
 * known key. Each section class reads and checks its own settings.
 */
public final class ServerConfigLoader {
  private final Properties settings = new Properties();

  /** Loads {@code file} if given (it must exist), then applies {@code overrides}. */
  public ServerConfig load(Path file, Map<String, String> overrides) {
    if (file != null) {
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        settings.load(in);
      } catch (IOException e) {
        throw new ConfigException("--config", "cannot read " + file + ": " + e.getMessage());
      } catch (IllegalArgumentException e) { // Properties.load: a backslash-u not followed by 4 hex
        throw new ConfigException(
            "--config",
            "cannot read "
                + file
                + ": a \\u escape must be followed by four hexadecimal digits ("
                + e.getMessage()
                + ")");
      }
    }
    overrides.forEach(settings::setProperty);
    for (String key : new TreeSet<>(settings.stringPropertyNames())) {
      if (Settings.find(key).isEmpty()) {
        throw new ConfigException(
            key,
            "unknown setting"
                + Settings.nearest(key).map(k -> "; did you mean " + k + "?").orElse(""));
      }
    }
    return build(new SettingValues(settings));
  }

  private static ServerConfig build(SettingValues values) {
    return new ServerConfig(
        values.get(ServerSection.LISTEN_HOST),
        values.get(ServerSection.LISTEN_PORT),
        ServerSection.dataDirectory(values),
        ServerSection.storeUrl(values),
        values.get(ServerSection.STORE_USER),
        values.password(ServerSection.STORE_PASSWORD_FILE, ServerSection.STORE_PASSWORD_ENV),
        ServerSection.storeConnectionTimeout(values),
        ServerSection.stagingRoot(values),
        values.get(ServerSection.MPIRUN_PATH),
        values.get(ServerSection.MPIRUN_OPTIONS),
        values.get(ServerSection.MPIRUN_HOSTFILE),
        values.find(ServerSection.SLOTS_TOTAL).orElse(Runtime.getRuntime().availableProcessors()),
        values.get(ServerSection.STAGING_PARALLELISM),
        values.get(ServerSection.STAGING_SQL_THREADS),
        values.get(ServerSection.WALL_TIME),
        values.get(ServerSection.KILL_GRACE),
        values.get(ServerSection.JOB_DEFINITION_BYTES),
        values.get(ServerSection.QUEUED_JOBS_PER_USER),
        values.get(ServerSection.CONCURRENT_REQUESTS_PER_USER),
        ServerSection.demoEnabled(values),
        values.get(ServerSection.DEMO_POSITIONS),
        values.get(ServerSection.DEMO_SSH_PORT),
        CredentialSection.dataSources(values),
        CredentialSection.sshIdentities(values),
        values
            .find(ServerSection.SSH_KNOWN_HOSTS)
            .orElse(ServerSection.dataDirectory(values).resolve("ssh").resolve("known_hosts")),
        values.get(ServerSection.SSH_ACCEPT_UNKNOWN_HOST_KEYS),
        SecuritySection.read(values),
        AdmissionSection.read(values),
        ConnectionSection.read(values),
        StorageSection.read(values),
        SandboxSection.read(values),
        StagingSection.read(values),
        StagingSection.readStandard(values),
        ComputeSection.read(values),
        JsdlResourceSettings.read(values),
        StageInSection.read(values),
        FarmSection.read(values),
        ScheduleSection.read(values),
        WorkerSessionSection.read(values),
        OperationsSection.read(values),
        IdentitySection.directory(values),
        IdentitySection.oidc(values),
        RiskSection.read(values),
        SshCaSection.read(values),
        NotifySection.read(values),
        QueueSection.read(values),
        QuotaSection.read(values),
        LogSection.read(values));
  }
}
