package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;

/** Task farms (configuration.md, "Task farms"; docs/task-farms.md). */
final class FarmSection {
  private FarmSection() {}

  static final Setting<Integer> MAX_TASKS =
      Setting.of("farm.max-tasks", SettingType.integer(1, 1_000_000))
          .byDefault("100000")
          .means("the most tasks one task farm may have");
  static final Setting<String> DISPATCHER_HOST =
      Setting.of(
              "farm.dispatcher-host",
              SettingType.word("[A-Za-z0-9][A-Za-z0-9.:-]{0,252}", "a host name or IP address"))
          .byDefault("127.0.0.1")
          .means("the address a farm's dispatcher listens on and its launchers connect to");
  static final Setting<Path> LAUNCHER =
      Setting.of("farm.launcher", SettingType.path())
          .shownDefault("`gantry-launcher` on the jobs' PATH (node-programs/build)")
          .means("the task-farm launcher program");

  static final Setting<Duration> HELLO_TIMEOUT =
      Setting.of("farm.hello-timeout", SettingType.duration())
          .byDefault("PT5S")
          .means(
              "a connection to a farm's or session's dispatcher that has not said a correct HELLO"
                  + " by then is closed");
  static final Setting<Integer> MAX_UNAUTHENTICATED =
      Setting.of("farm.max-unauthenticated", SettingType.integer(1, 1024))
          .byDefault("16")
          .means(
              "the most connections to one farm's or session's dispatcher that have not yet said"
                  + " a correct HELLO; more wait in the listen backlog");

  static ServerConfig.TaskFarms read(SettingValues values) {
    return new ServerConfig.TaskFarms(
        values.get(MAX_TASKS),
        values.get(DISPATCHER_HOST),
        values.find(LAUNCHER).orElse(null),
        values.get(HELLO_TIMEOUT),
        values.get(MAX_UNAUTHENTICATED));
  }
}
