package io.gantry.server.config;

import java.time.Duration;

/**
 * Sessions of long-lived workers (configuration.md, "Worker sessions"; docs/task-farms.md,
 * "Sessions"). Their launchers use the task farms' {@code farm.launcher} and {@code
 * farm.dispatcher-host}.
 */
final class WorkerSessionSection {
  private WorkerSessionSection() {}

  static final Setting<Integer> MAX_WORKERS =
      Setting.of("worker-session.max-workers", SettingType.integer(1, 4096))
          .byDefault("16")
          .means("the most workers one session may have");
  static final Setting<Integer> MAX_PER_USER =
      Setting.of("worker-session.max-per-user", SettingType.integer(1, 1000))
          .byDefault("4")
          .means("the most sessions one user may have open at once");
  static final Setting<Integer> MAX_HELD_MESSAGES =
      Setting.of("worker-session.max-held-messages", SettingType.integer(1, 10_000_000))
          .byDefault("1000000")
          .means("the most messages a session holds: submitted and not yet taken as completions");
  static final Setting<Long> MAX_HELD_BYTES =
      Setting.of("worker-session.max-held-bytes", SettingType.bytes())
          .byDefault("256M")
          .means(
              "the most bytes a session holds: messages not yet answered, answers not yet taken");
  static final Setting<Integer> MAX_MESSAGE_BYTES =
      Setting.of("worker-session.max-message-bytes", SettingType.integer(1, 1 << 20))
          .byDefault("65536")
          .means("the longest message, and the longest answer kept, in bytes on the worker's line");
  static final Setting<Duration> IDLE_TIMEOUT =
      Setting.of("worker-session.idle-timeout", SettingType.duration())
          .byDefault("PT15M")
          .means("a session its owner neither submits to nor takes from for this long is closed");
  static final Setting<Integer> MESSAGE_RETRIES =
      Setting.of("worker-session.message-retries", SettingType.integer(0, 100))
          .byDefault("2")
          .means("how many more times a message goes out after the worker running it died");
  static final Setting<Integer> WORKER_RESTARTS =
      Setting.of("worker-session.worker-restarts", SettingType.integer(0, 100_000))
          .byDefault("10")
          .means("how many times in all a session starts a worker again after one ended");

  static ServerConfig.WorkerSessions read(SettingValues values) {
    return new ServerConfig.WorkerSessions(
        values.get(MAX_WORKERS),
        values.get(MAX_PER_USER),
        values.get(MAX_HELD_MESSAGES),
        values.get(MAX_HELD_BYTES),
        values.get(MAX_MESSAGE_BYTES),
        values.get(IDLE_TIMEOUT),
        values.get(MESSAGE_RETRIES),
        values.get(WORKER_RESTARTS));
  }
}
