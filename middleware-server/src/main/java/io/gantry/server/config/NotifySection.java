package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Notifications (configuration.md, "Notifications"; docs/operations.md): where webhooks may go, the
 * key that signs them, and how long and how often a delivery is retried.
 */
final class NotifySection {
  private NotifySection() {}

  static final Setting<List<String>> ALLOWED_HOSTS =
      Setting.of("notify.allowed-hosts", SettingType.words())
          .shownDefault("none: no webhook is sent")
          .means("hosts (host, host:port, [v6]:port) webhooks may be posted to");
  static final Setting<Path> SIGNING_KEY_FILE =
      Setting.of("notify.signing-key-file", SettingType.path())
          .shownDefault("DATA_DIR/notify-signing.key, made on first start")
          .means("the HMAC-SHA256 key that signs webhooks (Gantry-Signature), as text");
  static final Setting<Duration> MAX_AGE =
      Setting.of("notify.max-age", SettingType.duration())
          .byDefault("PT24H")
          .means("how long an event is retried before delivery gives up");
  static final Setting<Duration> FIRST_RETRY =
      Setting.of("notify.first-retry", SettingType.duration())
          .byDefault("PT2S")
          .means(
              "the wait before the first retry; each next one waits twice as long, up to 15 min");

  static ServerConfig.Notifications read(SettingValues values) {
    List<String> hosts = values.get(ALLOWED_HOSTS);
    for (String entry : hosts) {
      if (!entry.matches("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+|[0-9A-Fa-f:]+)(:\\d{1,5})?")) {
        throw new ConfigException(
            ALLOWED_HOSTS.key(), "'" + entry + "' is not a host or host:port");
      }
    }
    Duration firstRetry = values.get(FIRST_RETRY);
    if (firstRetry.isNegative() || firstRetry.isZero()) {
      throw new ConfigException(FIRST_RETRY.key(), "must be positive");
    }
    Path key =
        values
            .find(SIGNING_KEY_FILE)
            .orElse(ServerSection.dataDirectory(values).resolve("notify-signing.key"));
    return new ServerConfig.Notifications(hosts, key, values.get(MAX_AGE), firstRetry);
  }
}
