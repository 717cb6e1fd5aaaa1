package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings of request bodies, refused requests and the login throttle. */
class AdmissionSettingsTest {
  @TempDir Path dir;

  private ServerConfig.Admission load(Map<String, String> settings) {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.put("data.dir", dir.toString());
    return new ServerConfigLoader().load(null, all).admission();
  }

  @Test
  void defaultsBoundBodiesAndFollowTheFailedLoginsBeforeDelay() {
    ServerConfig.Admission admission = load(Map.of("auth.failed-logins-before-delay", "3"));
    assertEquals(64 * 1024, admission.unauthenticatedBodyBytes());
    assertEquals(256 * 1024, admission.soapEnvelopeMarginBytes());
    assertEquals(16 * 1024 * 1024, admission.drainBytes());
    assertEquals(Duration.ofSeconds(5), admission.drainTime());
    assertEquals(12, admission.failedLoginsPerUser());
    assertEquals(18, admission.failedLoginsPerAddress());
    assertEquals(Duration.ofDays(30), admission.trustedAddressPeriod());
  }

  @Test
  void eachSettingIsRead() {
    ServerConfig.Admission admission =
        load(
            Map.of(
                "http.unauthenticated-body-bytes",
                "8192",
                "http.soap-envelope-margin-bytes",
                "65536",
                "http.drain-bytes",
                "0",
                "http.drain-time",
                "PT1S",
                "auth.failed-logins-per-user",
                "50",
                "auth.failed-logins-per-address",
                "100",
                "auth.trusted-address-period",
                "P7D"));
    assertEquals(
        new ServerConfig.Admission(
            8192, 65536, 0, Duration.ofSeconds(1), 50, 100, Duration.ofDays(7)),
        admission);
  }

  @Test
  void boundsAreCheckedNamingTheSetting() {
    ConfigException small =
        assertThrows(
            ConfigException.class, () -> load(Map.of("http.unauthenticated-body-bytes", "100")));
    assertTrue(small.getMessage().contains("http.unauthenticated-body-bytes"), small.getMessage());
    ConfigException longDrain =
        assertThrows(ConfigException.class, () -> load(Map.of("http.drain-time", "PT2M")));
    assertTrue(longDrain.getMessage().contains("http.drain-time"), longDrain.getMessage());
  }
}
