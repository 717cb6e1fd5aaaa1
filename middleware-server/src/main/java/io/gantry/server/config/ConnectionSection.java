package io.gantry.server.config;

import java.time.Duration;

/**
 * Connections to the HTTP(S) port before and between requests: how many, from one address, for how
 * long idle, how slowly a handshake, a request head or a body may arrive (docs/security.md, "Idle
 * and slow connections").
 */
final class ConnectionSection {
  private ConnectionSection() {}

  static final Setting<Integer> MAX_CONNECTIONS =
      Setting.of("http.max-connections", SettingType.integer(16, 1_000_000))
          .byDefault("4096")
          .means("connections to the port at once, from anywhere");
  static final Setting<Integer> MAX_CONNECTIONS_PER_ADDRESS =
      Setting.of("http.max-connections-per-address", SettingType.integer(1, 1_000_000))
          .byDefault("128")
          .means("connections to the port at once from one address");
  static final Setting<Duration> IDLE_TIMEOUT =
      Setting.of("http.idle-timeout", SettingType.duration())
          .byDefault("PT30S")
          .means("how long a connection may stay silent");
  static final Setting<Duration> BUSY_IDLE_TIMEOUT =
      Setting.of("http.busy-idle-timeout", SettingType.duration())
          .byDefault("PT2S")
          .means("how long a connection may stay silent while http.max-connections are open");
  static final Setting<Duration> REQUEST_HEAD_TIMEOUT =
      Setting.of("http.request-head-timeout", SettingType.duration())
          .byDefault("PT10S")
          .means("how long a TLS handshake or a request head may take to arrive");
  static final Setting<Integer> MIN_REQUEST_DATA_RATE =
      Setting.of("http.min-request-data-rate", SettingType.integer(0, 1 << 30))
          .byDefault("1024")
          .means("bytes per second below which a request body is cut off (0: no bound)");
  static final Setting<Integer> THREADS_PER_ADDRESS =
      Setting.of("http.threads-per-address", SettingType.integer(1, 10_000))
          .byDefault("32")
          .means("requests from one address handled at once; more wait without a thread");

  static ServerConfig.Connections read(SettingValues values) {
    Duration idle = values.get(IDLE_TIMEOUT);
    Duration busyIdle = values.get(BUSY_IDLE_TIMEOUT);
    if (busyIdle.compareTo(idle) > 0) {
      throw new ConfigException(
          BUSY_IDLE_TIMEOUT.key(),
          "must be at most http.idle-timeout (" + idle + "), not " + busyIdle);
    }
    Duration head = values.get(REQUEST_HEAD_TIMEOUT);
    if (head.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new ConfigException(REQUEST_HEAD_TIMEOUT.key(), "must be at least PT1S, not " + head);
    }
    return new ServerConfig.Connections(
        values.get(MAX_CONNECTIONS),
        values.get(MAX_CONNECTIONS_PER_ADDRESS),
        idle,
        busyIdle,
        head,
        values.get(MIN_REQUEST_DATA_RATE),
        values.get(THREADS_PER_ADDRESS));
  }
}
