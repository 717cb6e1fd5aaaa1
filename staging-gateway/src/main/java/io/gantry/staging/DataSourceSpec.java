package io.gantry.staging;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A resolved database connection: what the server's {@link CredentialResolver} returns for a {@link
 * DataSourceRef}. {@link #toString()} and {@link #describe()} never show the password.
 *
 * @param name a display name for messages (the named data source, or the redacted URL)
 * @param jdbcUrl the JDBC URL
 * @param user the database user
 * @param password the password (may be empty)
 * @param maxStatements the most statements staging runs on this data source at once, over every job
 *     and account of it (further steps wait their turn); 0 for no limit beyond the pool size
 */
public record DataSourceSpec(
    String name, String jdbcUrl, String user, Secret password, int maxStatements) {
  private static final Pattern URL_SECRET =
      Pattern.compile("(?i)((?:password|pwd|passwd|sslpassword)=)[^&;]*");

  public DataSourceSpec {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:")) {
      throw new IllegalArgumentException(
          "JDBC URL must start with jdbc: (got " + redactUrl(jdbcUrl) + ")");
    }
    name = name == null || name.isBlank() ? redactUrl(jdbcUrl) : name;
    password = password == null ? Secret.of("") : password;
    if (maxStatements < 0) {
      throw new IllegalArgumentException(
          "maxStatements must not be negative, not " + maxStatements);
    }
  }

  /** A data source without a limit of its own on concurrent statements. */
  public DataSourceSpec(String name, String jdbcUrl, String user, Secret password) {
    this(name, jdbcUrl, user, password, 0);
  }

  /** The JDBC URL with any password parameter replaced by {@code ***}. */
  public static String redactUrl(String jdbcUrl) {
    return jdbcUrl == null ? null : URL_SECRET.matcher(jdbcUrl).replaceAll("$1***");
  }

  /** {@code 'name' (redacted URL)}: what every error about this data source says. */
  public String describe() {
    String url = redactUrl(jdbcUrl);
    return name.equals(url) ? "'" + url + "'" : "'" + name + "' (" + url + ")";
  }

  @Override
  public String toString() {
    return "DataSourceSpec[" + describe() + ", user=" + user + "]";
  }
}
