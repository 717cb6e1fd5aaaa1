package io.gantry.server.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Named data sources ({@code datasource.NAME.*}) and SSH identities ({@code identity.NAME.*}): the
 * secrets a job refers to by name, so that its description carries none.
 */
final class CredentialSection {
  private CredentialSection() {}

  static final Setting<String> DATASOURCE_URL =
      Setting.of("datasource.NAME.url", SettingType.text())
          .shownDefault("(required)")
          .means("JDBC URL of data source NAME, without a password");
  static final Setting<String> DATASOURCE_USER =
      Setting.of("datasource.NAME.user", SettingType.anyText())
          .means("the account stage-out (and stage-in without read-user) connects with");
  static final Setting<String> DATASOURCE_PASSWORD_FILE =
      Setting.of("datasource.NAME.password-file", SettingType.text())
          .means("file holding that account's password");
  static final Setting<String> DATASOURCE_PASSWORD_ENV =
      Setting.of("datasource.NAME.password-env", SettingType.text())
          .means("environment variable holding that account's password");
  static final Setting<List<String>> DATASOURCE_USERS =
      Setting.of("datasource.NAME.users", SettingType.words())
          .shownDefault("every user")
          .means("Gantry users who may use data source NAME");
  static final Setting<String> DATASOURCE_READ_USER =
      Setting.of("datasource.NAME.read-user", SettingType.text())
          .shownDefault("`user`")
          .means("the account stage-in connects with");
  static final Setting<String> DATASOURCE_READ_PASSWORD_FILE =
      Setting.of("datasource.NAME.read-password-file", SettingType.text())
          .means("file holding the read-user's password");
  static final Setting<String> DATASOURCE_READ_PASSWORD_ENV =
      Setting.of("datasource.NAME.read-password-env", SettingType.text())
          .means("environment variable holding the read-user's password");
  static final Setting<Integer> DATASOURCE_MAX_STATEMENTS =
      Setting.of("datasource.NAME.max-statements", SettingType.integer(1, 10_000))
          .shownDefault("no limit")
          .means(
              "most statements staging runs on data source NAME at once, over all jobs and both"
                  + " accounts; further steps wait their turn");
  static final Setting<Path> IDENTITY_KEY_FILE =
      Setting.of("identity.NAME.key-file", SettingType.path())
          .means("private key file of SSH identity NAME");
  static final Setting<String> IDENTITY_PASSWORD_FILE =
      Setting.of("identity.NAME.password-file", SettingType.text())
          .means("file holding its password (or the key's passphrase)");
  static final Setting<String> IDENTITY_PASSWORD_ENV =
      Setting.of("identity.NAME.password-env", SettingType.text())
          .means("environment variable holding its password (or the key's passphrase)");
  static final Setting<List<String>> IDENTITY_USERS =
      Setting.of("identity.NAME.users", SettingType.words())
          .shownDefault("every user")
          .means("Gantry users who may use SSH identity NAME");

  static Map<String, NamedDataSource> dataSources(SettingValues values) {
    Map<String, NamedDataSource> result = new LinkedHashMap<>();
    for (String name :
        values.names(
            DATASOURCE_URL,
            DATASOURCE_USER,
            DATASOURCE_PASSWORD_FILE,
            DATASOURCE_PASSWORD_ENV,
            DATASOURCE_USERS,
            DATASOURCE_READ_USER,
            DATASOURCE_READ_PASSWORD_FILE,
            DATASOURCE_READ_PASSWORD_ENV,
            DATASOURCE_MAX_STATEMENTS)) {
      String urlKey = DATASOURCE_URL.keyFor(name);
      String url = values.get(DATASOURCE_URL, name);
      if (url == null || !url.startsWith("jdbc:")) {
        throw new ConfigException(urlKey, "a JDBC URL is required for data source " + name);
      }
      if (url.toLowerCase(Locale.ROOT).contains("password=")) {
        String prefix = "datasource." + name + ".";
        throw new ConfigException(
            urlKey, "must not carry a password; use " + prefix + "password-file or password-env");
      }
      String readUser = values.get(DATASOURCE_READ_USER, name);
      PasswordSource readPassword =
          values.password(DATASOURCE_READ_PASSWORD_FILE, DATASOURCE_READ_PASSWORD_ENV, name);
      if (readUser == null && !(readPassword instanceof PasswordSource.None)) {
        throw new ConfigException(
            DATASOURCE_READ_USER.keyFor(name),
            "is required with " + DATASOURCE_READ_PASSWORD_FILE.keyFor(name) + " or -env");
      }
      NamedDataSource.Account reader =
          readUser == null ? null : new NamedDataSource.Account(readUser, readPassword);
      String user = values.find(DATASOURCE_USER, name).orElse("");
      result.put(
          name,
          new NamedDataSource(
              name,
              url,
              user,
              values.password(DATASOURCE_PASSWORD_FILE, DATASOURCE_PASSWORD_ENV, name),
              new TreeSet<>(values.get(DATASOURCE_USERS, name)),
              reader,
              values.find(DATASOURCE_MAX_STATEMENTS, name).orElse(0)));
    }
    return Map.copyOf(result);
  }

  static Map<String, SshIdentity> sshIdentities(SettingValues values) {
    Map<String, SshIdentity> result = new LinkedHashMap<>();
    for (String name :
        values.names(
            IDENTITY_KEY_FILE, IDENTITY_PASSWORD_FILE, IDENTITY_PASSWORD_ENV, IDENTITY_USERS)) {
      Path keyFile = values.get(IDENTITY_KEY_FILE, name);
      PasswordSource secret = values.password(IDENTITY_PASSWORD_FILE, IDENTITY_PASSWORD_ENV, name);
      if (keyFile == null && secret instanceof PasswordSource.None) {
        throw new ConfigException(
            IDENTITY_KEY_FILE.keyFor(name),
            "SSH identity " + name + " needs a key-file, or a password-file or password-env");
      }
      result.put(
          name,
          new SshIdentity(name, keyFile, secret, new TreeSet<>(values.get(IDENTITY_USERS, name))));
    }
    return Map.copyOf(result);
  }
}
