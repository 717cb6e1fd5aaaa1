package io.gantry.server.config;

import java.net.URI;
import java.net.URISyntaxException;
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

  static final Setting<List<String>> MAIL_ALLOWED =
      Setting.of("notify.mail-allowed", SettingType.words())
          .shownDefault("none: no e-mail is sent")
          .means("addresses (ops@bank.example) and domains (bank.example) mail may be sent to");
  static final Setting<String> SMTP_HOST =
      Setting.of("notify.smtp-host", SettingType.text())
          .shownDefault("none: no e-mail is sent")
          .means("the SMTP server mail is sent through (always with STARTTLS)");
  static final Setting<Integer> SMTP_PORT =
      Setting.of("notify.smtp-port", SettingType.integer(1, 65535))
          .byDefault("587")
          .means("its port (submission)");
  static final Setting<String> SMTP_USER =
      Setting.of("notify.smtp-user", SettingType.text())
          .shownDefault("none: no login")
          .means("the user the server logs in to the SMTP server as, after STARTTLS");
  static final Setting<String> SMTP_PASSWORD_FILE =
      Setting.of("notify.smtp-password-file", SettingType.text())
          .means("file holding that user's password; required with notify.smtp-user");
  static final Setting<String> MAIL_FROM =
      Setting.of("notify.mail-from", SettingType.text())
          .means("the From address of notification mail; required with notify.smtp-host");

  static final Setting<String> PUBLIC_URL =
      Setting.of("server.public-url", SettingType.text())
          .shownDefault("the address the server listens on (listen.host)")
          .means(
              "the server's address as users reach it, e.g. https://gantry.bank.example/; the job"
                  + " page links in notification mail start with it");

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
    return new ServerConfig.Notifications(
        hosts, key, values.get(MAX_AGE), firstRetry, mail(values), publicUrl(values));
  }

  /** server.public-url with a trailing slash (links are made relative to it), or null. */
  private static String publicUrl(SettingValues values) {
    String url = values.get(PUBLIC_URL);
    if (url == null) {
      return null;
    }
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (URISyntaxException e) {
      throw new ConfigException(PUBLIC_URL.key(), "'" + url + "' is not a URL: " + e.getMessage());
    }
    if (!("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()))
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new ConfigException(
          PUBLIC_URL.key(),
          "'" + url + "' is not an http(s) URL of a host (no user, query or fragment)");
    }
    String text = uri.toString();
    return text.endsWith("/") ? text : text + "/";
  }

  private static ServerConfig.Mail mail(SettingValues values) {
    List<String> allowed = values.get(MAIL_ALLOWED);
    for (String entry : allowed) {
      if (!entry.matches(
          "([^@\\s<>,;\"]+@)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9-]+)*")) {
        throw new ConfigException(
            MAIL_ALLOWED.key(), "'" + entry + "' is not an address (a@b.example) or a domain");
      }
    }
    String host = values.get(SMTP_HOST);
    String from = values.get(MAIL_FROM);
    if (host != null && from == null) {
      throw new ConfigException(MAIL_FROM.key(), "is required with notify.smtp-host");
    }
    String user = values.get(SMTP_USER);
    String passwordFile = values.get(SMTP_PASSWORD_FILE);
    if (user != null && passwordFile == null) {
      throw new ConfigException(SMTP_PASSWORD_FILE.key(), "is required with notify.smtp-user");
    }
    PasswordSource password =
        passwordFile == null
            ? new PasswordSource.None()
            : new PasswordSource.FromFile(Path.of(passwordFile));
    return new ServerConfig.Mail(allowed, host, values.get(SMTP_PORT), user, password, from);
  }
}
