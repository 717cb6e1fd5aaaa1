package io.gantry.server.config;

import java.time.Duration;

/**
 * Request bodies and the login throttle; the throttle's defaults follow
 * auth.failed-logins-before-delay.
 */
final class AdmissionSection {
  private AdmissionSection() {}

  static final Setting<Integer> UNAUTHENTICATED_BODY_BYTES =
      Setting.of("http.unauthenticated-body-bytes", SettingType.integer(4 * 1024, 16 * 1024 * 1024))
          .byDefault("65536")
          .means("most a SOAP request may carry before its caller is authenticated");
  static final Setting<Integer> SOAP_ENVELOPE_MARGIN_BYTES =
      Setting.of("http.soap-envelope-margin-bytes", SettingType.integer(4 * 1024, 64 * 1024 * 1024))
          .byDefault("262144")
          .means("what a SOAP request may carry beyond limits.job-definition-bytes");
  static final Setting<Integer> DRAIN_BYTES =
      Setting.of("http.drain-bytes", SettingType.integer(0, 1024 * 1024 * 1024))
          .byDefault("16777216")
          .means("how much of a refused request's body is read and thrown away before answering");
  static final Setting<Duration> DRAIN_TIME =
      Setting.of("http.drain-time", SettingType.duration())
          .byDefault("PT5S")
          .means("for how long at most a refused body is drained (at most PT1M)");
  static final Setting<Integer> FAILED_LOGINS_PER_USER =
      Setting.of("auth.failed-logins-per-user", SettingType.integer(1, 4_000_000))
          .shownDefault("4 × `auth.failed-logins-before-delay`")
          .means("failed logins for one user from addresses new to it before those wait");
  static final Setting<Integer> FAILED_LOGINS_PER_ADDRESS =
      Setting.of("auth.failed-logins-per-address", SettingType.integer(1, 6_000_000))
          .shownDefault("6 × `auth.failed-logins-before-delay`")
          .means("failed logins from one address before names new to it wait");
  static final Setting<Duration> TRUSTED_ADDRESS_PERIOD =
      Setting.of("auth.trusted-address-period", SettingType.duration())
          .byDefault("P30D")
          .means("how long a successful login exempts its address for its user");

  static ServerConfig.Admission read(SettingValues values) {
    int perPair = values.get(SecuritySection.FAILED_LOGINS_BEFORE_DELAY);
    Duration drainTime = values.get(DRAIN_TIME);
    if (drainTime.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new ConfigException(DRAIN_TIME.key(), "must be at most PT1M, not " + drainTime);
    }
    return new ServerConfig.Admission(
        values.get(UNAUTHENTICATED_BODY_BYTES),
        values.get(SOAP_ENVELOPE_MARGIN_BYTES),
        values.get(DRAIN_BYTES),
        drainTime,
        values.find(FAILED_LOGINS_PER_USER).orElse((int) Math.min(1_000_000, 4L * perPair)),
        values.find(FAILED_LOGINS_PER_ADDRESS).orElse((int) Math.min(1_000_000, 6L * perPair)),
        values.get(TRUSTED_ADDRESS_PERIOD));
  }
}
