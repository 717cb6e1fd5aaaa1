package io.gantry.server.config;

import java.util.Optional;

/**
 * The server's log (configuration.md, "Logs"; docs/operations.md, "Logs"): the console, and a file
 * rolled over by size and by day, kept for a number of days and up to a total size, as text or JSON
 * lines.
 */
final class LogSection {
  private LogSection() {}

  private static final String FORMATS = "text|json";

  static final Setting<java.nio.file.Path> FILE =
      Setting.of("log.file", SettingType.path())
          .shownDefault("unset: no log file")
          .means(
              "the log file; rolled over each day and at log.max-file-size into"
                  + " FILE.YYYY-MM-DD.N.gz beside it");
  static final Setting<String> FORMAT =
      Setting.of("log.format", SettingType.word(FORMATS, "text or json"))
          .byDefault("text")
          .means("the log file's form: text lines, or JSON lines with the job id and user");
  static final Setting<String> CONSOLE =
      Setting.of("log.console", SettingType.word(FORMATS + "|off", "text, json or off"))
          .byDefault("text")
          .means("the log on standard error: text lines, JSON lines, or none");
  static final Setting<Long> MAX_FILE_SIZE =
      Setting.of("log.max-file-size", SettingType.bytes())
          .byDefault("100M")
          .means("the size at which the log file is rolled over before the day ends");
  static final Setting<Integer> MAX_HISTORY =
      Setting.of("log.max-history", SettingType.integer(1, 3650))
          .byDefault("30")
          .means("days of rolled-over log files kept");
  static final Setting<Long> TOTAL_SIZE_CAP =
      Setting.of("log.total-size-cap", SettingType.bytes())
          .byDefault("10G")
          .means("the most the rolled-over log files take together; the oldest go first");

  static ServerConfig.Logging read(SettingValues values) {
    Optional<java.nio.file.Path> file = values.find(FILE);
    if (file.isEmpty()) {
      // a rollover or form set without a file would be read and ignored
      for (Setting<?> fileOnly :
          java.util.List.of(FORMAT, MAX_FILE_SIZE, MAX_HISTORY, TOTAL_SIZE_CAP)) {
        if (values.isSet(fileOnly)) {
          throw new ConfigException(fileOnly.key(), "applies to the log file: set log.file too");
        }
      }
    }
    if (values.get(TOTAL_SIZE_CAP) < values.get(MAX_FILE_SIZE)) {
      // Logback refuses such a policy, and would leave the server without its file
      throw new ConfigException(
          TOTAL_SIZE_CAP.key(), "must be at least log.max-file-size (one rolled-over file)");
    }
    return new ServerConfig.Logging(
        values.get(CONSOLE),
        file,
        values.get(FORMAT),
        values.get(MAX_FILE_SIZE),
        values.get(MAX_HISTORY),
        values.get(TOTAL_SIZE_CAP));
  }
}
