package io.gantry.server.config;

import java.time.Duration;

/**
 * Disk bounds, the longest wall time, retention and the storage watch (configuration.md,
 * "Storage").
 */
final class StorageSection {
  private StorageSection() {}

  static final Setting<Long> JOB_STAGED_BYTES =
      Setting.of("limits.job-staged-bytes", SettingType.bytes())
          .byDefault("16G")
          .means("most bytes one job's stage-in may put into its job directory");
  static final Setting<Long> JOB_OUTPUT_BYTES =
      Setting.of("limits.job-output-bytes", SettingType.bytes())
          .byDefault("16G")
          .means("most bytes a job's program may write beyond its staged input");
  static final Setting<Long> MIN_FREE_BYTES =
      Setting.of("staging.min-free-bytes", SettingType.bytes())
          .byDefault("1G")
          .means("free space the staging file system needs before a stage-in starts");
  static final Setting<Duration> MAX_WALL_TIME =
      Setting.of("limits.max-wall-time", SettingType.duration())
          .byDefault("P7D")
          .means("the longest WallTimeLimit a job may ask for");
  static final Setting<Duration> RETENTION =
      Setting.of("jobs.retention", SettingType.duration())
          .byDefault("P7D")
          .means("a finished job's directory is removed this long after the job ended");
  static final Setting<Duration> CHECK_INTERVAL =
      Setting.of("storage.check-interval", SettingType.duration())
          .byDefault("PT5S")
          .means("how often the data directory, job store and running jobs' bytes are checked");

  /**
   * The default wall time must fit under the maximum, or every job without a WallTimeLimit of its
   * own would be refused.
   */
  static ServerConfig.Storage read(SettingValues values) {
    Duration maxWallTime = values.get(MAX_WALL_TIME);
    Duration defaultWallTime = values.get(ServerSection.WALL_TIME);
    if (defaultWallTime.compareTo(maxWallTime) > 0) {
      throw new ConfigException(
          ServerSection.WALL_TIME.key(),
          defaultWallTime + " is longer than limits.max-wall-time (" + maxWallTime + ")");
    }
    return new ServerConfig.Storage(
        values.get(JOB_STAGED_BYTES),
        values.get(JOB_OUTPUT_BYTES),
        values.get(MIN_FREE_BYTES),
        maxWallTime,
        values.get(RETENTION),
        values.get(CHECK_INTERVAL));
  }
}
