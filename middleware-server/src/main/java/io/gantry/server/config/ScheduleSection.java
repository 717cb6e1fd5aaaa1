package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;

/** Schedules (configuration.md, "Schedules"): how often they are checked, and the test clock. */
final class ScheduleSection {
  private ScheduleSection() {}

  static final Setting<Duration> CHECK_INTERVAL =
      Setting.of("schedules.check-interval", SettingType.duration())
          .byDefault("PT5S")
          .means("how often the server looks for schedules whose time has come");
  static final Setting<Path> TEST_CLOCK_FILE =
      Setting.of("schedules.test-clock-file", SettingType.path())
          .means(
              "tests only: a file holding an ISO-8601 instant that is the schedules' clock;"
                  + " accepted only with listen.host on loopback");

  static ServerConfig.Schedules read(SettingValues values) {
    Path clockFile = values.find(TEST_CLOCK_FILE).orElse(null);
    String host = values.get(ServerSection.LISTEN_HOST);
    if (clockFile != null && !Loopback.is(host)) {
      // a clock someone can set makes schedules fire at will: never on a server others reach
      throw new ConfigException(
          TEST_CLOCK_FILE.key(),
          "is for tests and runs only on a loopback listener, and listen.host is "
              + host
              + "; remove it");
    }
    return new ServerConfig.Schedules(values.get(CHECK_INTERVAL), clockFile);
  }
}
