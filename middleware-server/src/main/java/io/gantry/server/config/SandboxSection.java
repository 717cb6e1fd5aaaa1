package io.gantry.server.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Who jobs run as and which programs their sandbox shows (configuration.md, "Job accounts and the
 * sandbox").
 */
final class SandboxSection {
  private SandboxSection() {}

  static final Setting<String> DEFAULT_OS_ACCOUNT =
      Setting.of(
              "jobs.default-os-account",
              SettingType.word("[A-Za-z0-9_][A-Za-z0-9._-]{0,31}", "an OS account name"))
          .byDefault("nobody")
          .means("OS account of users with none of their own (never root)");
  static final Setting<List<String>> ALLOWED_EXECUTABLE_ROOTS =
      Setting.of("jobs.allowed-executable-roots", SettingType.words())
          .means("directories of programs bound read-only into every job's sandbox");

  static final Setting<Boolean> REQUIRE_NODE_SANDBOX =
      Setting.of("compute.require-sandbox", SettingType.bool())
          .byDefault("true")
          .means(
              "mpirun-hosts and slurm: a job whose node has no bubblewrap is refused rather than"
                  + " run there unconfined");

  static final Setting<Path> SUPERVISOR =
      Setting.of("jobs.supervisor", SettingType.path())
          .shownDefault("none (jobs end with the server)")
          .means("the gantry-stepd program local jobs run under, so that they outlive the server");

  /**
   * An executable root is bound into every job's sandbox, so one that holds the data directory or
   * the job directories would show jobs the server's keys and each other's files: refused.
   */
  static ServerConfig.Sandbox read(SettingValues values) {
    Path dataDir = ServerSection.dataDirectory(values);
    Path stagingRoot = ServerSection.stagingRoot(values);
    String account = values.get(DEFAULT_OS_ACCOUNT);
    if (account.equals("root")) {
      throw new ConfigException(
          DEFAULT_OS_ACCOUNT.key(), "must not be root: jobs never run as root");
    }
    List<Path> roots = new ArrayList<>();
    for (String word : values.get(ALLOWED_EXECUTABLE_ROOTS)) {
      Path root = Path.of(word);
      if (!root.isAbsolute()) {
        throw new ConfigException(
            ALLOWED_EXECUTABLE_ROOTS.key(), "'" + word + "' is not an absolute path");
      }
      root = root.normalize();
      if (root.getNameCount() == 0
          || dataDir.startsWith(root)
          || stagingRoot.startsWith(root)
          || root.startsWith(dataDir)
          || root.startsWith(stagingRoot)) {
        throw new ConfigException(
            ALLOWED_EXECUTABLE_ROOTS.key(),
            root
                + " would show jobs the server's data"
                + " directory ("
                + dataDir
                + ") or the job directories ("
                + stagingRoot
                + "); name the"
                + " directories of the programs only");
      }
      roots.add(root);
    }
    Path supervisor = values.get(SUPERVISOR);
    if (supervisor != null && !supervisor.isAbsolute()) {
      throw new ConfigException(SUPERVISOR.key(), supervisor + " is not an absolute path");
    }
    return new ServerConfig.Sandbox(account, roots, supervisor, values.get(REQUIRE_NODE_SANDBOX));
  }
}
