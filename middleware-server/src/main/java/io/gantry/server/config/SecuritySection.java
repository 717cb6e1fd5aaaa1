package io.gantry.server.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * TLS and authentication, both on by default. Plain HTTP carries passwords and job descriptions in
 * clear, and a server without accounts lets anyone who reaches it act as its one user, so turning
 * either off is refused on any address but loopback.
 */
final class SecuritySection {
  private SecuritySection() {}

  static final Setting<Boolean> TLS_ENABLED =
      Setting.of("tls.enabled", SettingType.bool())
          .byDefault("true")
          .means("HTTPS instead of plain HTTP (false: loopback only)");
  static final Setting<Path> TLS_KEYSTORE =
      Setting.of("tls.keystore", SettingType.path())
          .shownDefault("generated")
          .means("PKCS12 keystore with the server's key and certificate");
  static final Setting<String> TLS_KEYSTORE_PASSWORD_FILE =
      Setting.of("tls.keystore-password-file", SettingType.text())
          .means("file holding the keystore's password; required with tls.keystore");
  static final Setting<Boolean> AUTH_ENABLED =
      Setting.of("auth.enabled", SettingType.bool())
          .byDefault("true")
          .means("every SOAP call needs a user (false: loopback only, single user local)");
  static final Setting<String> ADMIN_PASSWORD_FILE =
      Setting.of("admin.password-file", SettingType.text())
          .shownDefault("generated")
          .means("file holding the first administrator's password");
  static final Setting<String> ADMIN_PASSWORD_ENV =
      Setting.of("admin.password-env", SettingType.text())
          .shownDefault("generated")
          .means("environment variable holding the first administrator's password");
  static final Setting<Integer> FAILED_LOGINS_BEFORE_DELAY =
      Setting.of("auth.failed-logins-before-delay", SettingType.integer(1, 1_000_000))
          .byDefault("5")
          .means(
              "failed logins in a row of one user and address before each further attempt waits");
  static final Setting<Duration> TOKEN_LIFETIME =
      Setting.of("auth.token-lifetime", SettingType.duration())
          .byDefault("PT12H")
          .means("a session token (gantry login) is accepted this long after it was issued");
  static final Setting<Duration> WEB_SESSION_IDLE_TIMEOUT =
      Setting.of("web.session-idle-timeout", SettingType.duration())
          .byDefault("PT30M")
          .means("a browser session idle this long ends");

  /** Between a minute (a shorter one would end before a command does) and 90 days. */
  private static Duration tokenLifetime(SettingValues values) {
    Duration lifetime = values.get(TOKEN_LIFETIME);
    if (lifetime.compareTo(Duration.ofMinutes(1)) < 0
        || lifetime.compareTo(Duration.ofDays(90)) > 0) {
      throw new ConfigException(
          TOKEN_LIFETIME.key(), "must be between PT1M and P90D, was " + lifetime);
    }
    return lifetime;
  }

  static ServerConfig.Security read(SettingValues values) {
    String host = values.get(ServerSection.LISTEN_HOST);
    boolean tls = values.get(TLS_ENABLED);
    if (!tls && !Loopback.is(host)) {
      throw new ConfigException(
          TLS_ENABLED.key(),
          "plain HTTP is allowed only on loopback, and listen.host is "
              + host
              + "; set tls.enabled=true (with tls.keystore for a certificate of your own)");
    }
    Path keystore = values.get(TLS_KEYSTORE);
    String keystorePassword = values.get(TLS_KEYSTORE_PASSWORD_FILE);
    if (keystore != null && keystorePassword == null) {
      throw new ConfigException(TLS_KEYSTORE_PASSWORD_FILE.key(), "is required with tls.keystore");
    }
    if (keystore != null && !tls) {
      throw new ConfigException(TLS_KEYSTORE.key(), "is set but tls.enabled is false");
    }
    boolean auth = values.get(AUTH_ENABLED);
    if (!auth && !Loopback.is(host)) {
      throw new ConfigException(
          AUTH_ENABLED.key(), "a server without authentication must listen on loopback only");
    }
    return new ServerConfig.Security(
        tls,
        keystore,
        keystorePassword == null
            ? new PasswordSource.None()
            : new PasswordSource.FromFile(Path.of(keystorePassword)),
        auth,
        values.password(ADMIN_PASSWORD_FILE, ADMIN_PASSWORD_ENV),
        values.get(WEB_SESSION_IDLE_TIMEOUT),
        values.get(FAILED_LOGINS_BEFORE_DELAY),
        tokenLifetime(values));
  }
}
