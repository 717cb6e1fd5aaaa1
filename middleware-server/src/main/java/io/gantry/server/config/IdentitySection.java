package io.gantry.server.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Logins from outside Gantry (docs/security.md, "Directory logins and access tokens"): users of an
 * LDAP directory or Active Directory, checked by a bind over TLS, and access tokens of an OIDC
 * identity provider. Both are off unless their URL is set; local accounts work beside them.
 */
final class IdentitySection {
  private IdentitySection() {}

  static final Setting<String> DIRECTORY_URL =
      Setting.of("directory.url", SettingType.text())
          .shownDefault("unset: no directory logins")
          .means(
              "the LDAP directory: ldaps://HOST:PORT (LDAPS), or ldap://HOST:PORT, always"
                  + " upgraded with StartTLS");
  static final Setting<Path> DIRECTORY_CA_FILE =
      Setting.of("directory.ca-file", SettingType.path())
          .shownDefault("the Java runtime's trusted authorities")
          .means("PEM file of the authorities trusted for the directory's certificate");
  static final Setting<String> DIRECTORY_BIND_DN =
      Setting.of("directory.bind-dn", SettingType.text())
          .shownDefault("unset: anonymous searches")
          .means("the service account that searches for users and reads groups");
  static final Setting<String> DIRECTORY_BIND_PASSWORD_FILE =
      Setting.of("directory.bind-password-file", SettingType.text())
          .means("file holding directory.bind-dn's password");
  static final Setting<String> DIRECTORY_BIND_PASSWORD_ENV =
      Setting.of("directory.bind-password-env", SettingType.text())
          .means("environment variable holding directory.bind-dn's password");
  static final Setting<String> DIRECTORY_USER_BASE =
      Setting.of("directory.user-base", SettingType.text())
          .shownDefault("none: required with directory.url")
          .means("the DN under which users are searched (whole subtree)");
  static final Setting<String> DIRECTORY_USER_FILTER =
      Setting.of("directory.user-filter", SettingType.text())
          .byDefault("(&(objectClass=inetOrgPerson)(uid={0}))")
          .means(
              "the filter that finds a user who may log in; {0} is the login name (escaped)."
                  + " Leave disabled users out here");
  static final Setting<String> DIRECTORY_USER_GROUP =
      Setting.of("directory.user-group", SettingType.text())
          .shownDefault("unset: anyone the filter finds")
          .means("the DN of the group whose members may log in as users");
  static final Setting<String> DIRECTORY_ADMIN_GROUP =
      Setting.of("directory.admin-group", SettingType.text())
          .shownDefault("unset: no directory administrators")
          .means("the DN of the group whose members are administrators");
  static final Setting<String> DIRECTORY_OS_ACCOUNT_ATTRIBUTE =
      Setting.of(
              "directory.os-account-attribute",
              SettingType.word("[A-Za-z][A-Za-z0-9-]{0,63}", "an LDAP attribute name"))
          .shownDefault("unset: jobs.default-os-account")
          .means("the user's attribute naming the OS account their jobs run under (uid)");
  static final Setting<Duration> DIRECTORY_RECHECK_AFTER =
      Setting.of("directory.recheck-after", SettingType.durationOrZero())
          .byDefault("PT5S")
          .means(
              "how long a looked-up directory user is trusted before the directory is asked"
                  + " again (PT0S to PT30S); a password is checked by the directory every time");

  static final Setting<String> OIDC_ISSUER =
      Setting.of("oidc.issuer", SettingType.text())
          .shownDefault("unset: no access tokens")
          .means("the OIDC provider's issuer URL (https); its discovery document names the JWKS");
  static final Setting<String> OIDC_AUDIENCE =
      Setting.of("oidc.audience", SettingType.text())
          .shownDefault("none: required with oidc.issuer")
          .means("the audience (aud) an access token must be issued for");
  static final Setting<String> OIDC_USER_CLAIM =
      Setting.of("oidc.user-claim", SettingType.word("[A-Za-z0-9_:.-]{1,64}", "a claim name"))
          .byDefault("preferred_username")
          .means("the token's claim holding the Gantry user name");
  static final Setting<Path> OIDC_CA_FILE =
      Setting.of("oidc.ca-file", SettingType.path())
          .shownDefault("the Java runtime's trusted authorities")
          .means("PEM file of the authorities trusted for the provider's HTTPS certificate");

  /** Recheck a directory user at most this long after the last look: "a few seconds". */
  static final Duration LONGEST_RECHECK = Duration.ofSeconds(30);

  static Optional<ServerConfig.Directory> directory(SettingValues values) {
    Optional<String> url = values.find(DIRECTORY_URL);
    if (url.isEmpty()) {
      for (Setting<?> other :
          java.util.List.of(
              DIRECTORY_USER_BASE,
              DIRECTORY_BIND_DN,
              DIRECTORY_CA_FILE,
              DIRECTORY_ADMIN_GROUP,
              DIRECTORY_USER_GROUP,
              DIRECTORY_OS_ACCOUNT_ATTRIBUTE)) {
        if (values.find(other).isPresent()) {
          throw new ConfigException(other.key(), "is set but directory.url is not");
        }
      }
      return Optional.empty();
    }
    URI uri = uri(DIRECTORY_URL.key(), url.get());
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("ldaps") && !scheme.equals("ldap")) {
      throw new ConfigException(
          DIRECTORY_URL.key(),
          "must be ldaps://HOST:PORT, or ldap://HOST:PORT (then upgraded with StartTLS), was "
              + url.get());
    }
    // passwords go to the directory only over TLS: an ldap:// URL always means StartTLS
    boolean startTls = scheme.equals("ldap");
    if (uri.getHost() == null) {
      throw new ConfigException(DIRECTORY_URL.key(), "names no host: " + url.get());
    }
    String userBase =
        values
            .find(DIRECTORY_USER_BASE)
            .orElseThrow(
                () ->
                    new ConfigException(
                        DIRECTORY_USER_BASE.key(), "is required with directory.url"));
    String filter = values.get(DIRECTORY_USER_FILTER);
    if (!filter.contains("{0}")) {
      throw new ConfigException(
          DIRECTORY_USER_FILTER.key(), "must hold {0}, where the login name goes: " + filter);
    }
    Duration recheck = values.get(DIRECTORY_RECHECK_AFTER);
    if (recheck.isNegative() || recheck.compareTo(LONGEST_RECHECK) > 0) {
      throw new ConfigException(
          DIRECTORY_RECHECK_AFTER.key(), "must be between PT0S and PT30S, was " + recheck);
    }
    PasswordSource bindPassword =
        values.password(DIRECTORY_BIND_PASSWORD_FILE, DIRECTORY_BIND_PASSWORD_ENV);
    Optional<String> bindDn = values.find(DIRECTORY_BIND_DN);
    if (bindDn.isPresent() == (bindPassword instanceof PasswordSource.None)) {
      throw new ConfigException(
          DIRECTORY_BIND_DN.key(),
          "directory.bind-dn and its password (directory.bind-password-file or -env) go together");
    }
    return Optional.of(
        new ServerConfig.Directory(
            uri.getHost(),
            uri.getPort() > 0 ? uri.getPort() : scheme.equals("ldaps") ? 636 : 389,
            startTls,
            values.find(DIRECTORY_CA_FILE),
            bindDn,
            bindPassword,
            userBase,
            filter,
            values.find(DIRECTORY_USER_GROUP),
            values.find(DIRECTORY_ADMIN_GROUP),
            values.find(DIRECTORY_OS_ACCOUNT_ATTRIBUTE),
            recheck));
  }

  static Optional<ServerConfig.Oidc> oidc(SettingValues values) {
    Optional<String> issuer = values.find(OIDC_ISSUER);
    Optional<String> audience = values.find(OIDC_AUDIENCE);
    if (issuer.isEmpty()) {
      if (audience.isPresent() || values.find(OIDC_CA_FILE).isPresent()) {
        throw new ConfigException(
            audience.isPresent() ? OIDC_AUDIENCE.key() : OIDC_CA_FILE.key(),
            "is set but oidc.issuer is not");
      }
      return Optional.empty();
    }
    URI uri = uri(OIDC_ISSUER.key(), issuer.get());
    if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
      throw new ConfigException(
          OIDC_ISSUER.key(), "must be an https:// URL (OpenID Connect Discovery 1.0, section 3)");
    }
    return Optional.of(
        new ServerConfig.Oidc(
            issuer.get(),
            audience.orElseThrow(
                () -> new ConfigException(OIDC_AUDIENCE.key(), "is required with oidc.issuer")),
            values.get(OIDC_USER_CLAIM),
            values.find(OIDC_CA_FILE)));
  }

  private static URI uri(String key, String text) {
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw new ConfigException(key, "is not a URL: " + e.getMessage());
    }
  }
}
