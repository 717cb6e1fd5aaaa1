package io.gantry.staging;

import java.util.Objects;

/**
 * How a plan names a database, as the JSDL does: either a named data source defined in the server's
 * configuration ({@code DataSourceRef}), or an inline one (JDBC URL, user and an encrypted password
 * token that only the server's {@link CredentialResolver} can turn into a password). The gateway
 * never sees a password here.
 *
 * @param name the named data source, or null for an inline one
 * @param jdbcUrl the inline JDBC URL, or null for a named one
 * @param user the inline user, or null
 * @param passwordToken the inline encrypted password (opaque to the gateway), or null
 */
public record DataSourceRef(String name, String jdbcUrl, String user, String passwordToken) {
  public DataSourceRef {
    boolean named = name != null && !name.isBlank();
    boolean inline = jdbcUrl != null && !jdbcUrl.isBlank();
    if (named == inline) {
      throw new IllegalArgumentException(
          "a data source is either named or inline (JDBC URL), exactly one of them");
    }
  }

  public static DataSourceRef named(String name) {
    return new DataSourceRef(Objects.requireNonNull(name, "name"), null, null, null);
  }

  public static DataSourceRef inline(String jdbcUrl, String user, String passwordToken) {
    return new DataSourceRef(null, Objects.requireNonNull(jdbcUrl, "jdbcUrl"), user, passwordToken);
  }

  /** What error messages call it: the name, or the JDBC URL without credentials. */
  public String describe() {
    return name != null ? name : DataSourceSpec.redactUrl(jdbcUrl);
  }

  @Override
  public String toString() {
    return "DataSourceRef[" + describe() + "]";
  }
}
