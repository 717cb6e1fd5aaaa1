package io.gantry.server.config;

/**
 * The operations listener (configuration.md, "Metrics and health"; docs/operations.md): /metrics,
 * /healthz and /readyz on a port of their own, on loopback only, since they carry no login.
 */
final class OperationsSection {
  private OperationsSection() {}

  static final Setting<Integer> PORT =
      Setting.of("ops.listen-port", SettingType.integer(0, 65535))
          .shownDefault("unset: no operations listener")
          .means(
              "the loopback port of /metrics (Prometheus text), /healthz and /readyz;"
                  + " 0 picks a free one");
  static final Setting<String> HOST =
      Setting.of(
              "ops.listen-host",
              SettingType.word("[A-Za-z0-9][A-Za-z0-9.:-]{0,252}", "a loopback address"))
          .byDefault("127.0.0.1")
          .means("the loopback address of the operations listener");

  static ServerConfig.Operations read(SettingValues values) {
    String host = values.get(HOST);
    boolean loopback;
    try {
      loopback = java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new ConfigException(HOST.key(), "unknown host " + host);
    }
    if (!loopback) {
      // /metrics and /readyz answer without a login: only this machine (Prometheus beside the
      // server, or a reverse proxy that authenticates) may reach them
      throw new ConfigException(
          HOST.key(), "must be a loopback address (it has no login), and is " + host);
    }
    return new ServerConfig.Operations(host, values.find(PORT).orElse(-1));
  }
}
