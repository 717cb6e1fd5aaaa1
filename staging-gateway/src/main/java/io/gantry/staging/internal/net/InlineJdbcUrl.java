package io.gantry.staging.internal.net;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A JDBC URL written by a user (an inline data source), taken apart and checked against the
 * allow-list of its driver. A JDBC URL is a small program for its driver: H2 runs {@code INIT}
 * scripts, opens files and writes trace files; pgjdbc loads classes named in {@code socketFactory},
 * {@code sslfactory} or {@code authenticationPluginClassName} and writes {@code loggerFile}. Only
 * two forms are accepted, each with the options known to do none of that:
 *
 * <ul>
 *   <li>{@code jdbc:postgresql://host[:port][,host[:port]...]/database[?option=value&...]}
 *   <li>{@code jdbc:h2:tcp://host[:port][,...]/path[;OPTION=value...]} (or {@code ssl://}): H2 only
 *       through its server, never in the staging JVM ({@code file:}, {@code mem:}, {@code zip:},
 *       {@code split:} and every other embedded form are refused)
 * </ul>
 *
 * Credentials never go in the URL: the JSDL's UserId and encrypted Password carry them.
 */
public record InlineJdbcUrl(String base, List<HostPort> hosts) {
  private static final String POSTGRES = "jdbc:postgresql://";
  private static final List<String> H2_SERVERS = List.of("jdbc:h2:tcp://", "jdbc:h2:ssl://");

  /** pgjdbc options that only tune the connection; pgjdbc matches names case-sensitively. */
  private static final Set<String> POSTGRES_OPTIONS =
      Set.of(
          "ApplicationName",
          "applicationName",
          "connectTimeout",
          "socketTimeout",
          "loginTimeout",
          "cancelSignalTimeout",
          "currentSchema",
          "ssl",
          "sslmode",
          "tcpKeepAlive",
          "tcpNoDelay",
          "targetServerType",
          "loadBalanceHosts",
          "hostRecheckSeconds",
          "defaultRowFetchSize",
          "prepareThreshold",
          "preparedStatementCacheQueries",
          "preparedStatementCacheSizeMiB",
          "preferQueryMode",
          "reWriteBatchedInserts",
          "stringtype",
          "binaryTransfer",
          "gssEncMode",
          "assumeMinServerVersion",
          "receiveBufferSize",
          "sendBufferSize");

  /** H2 settings that change how SQL reads, not what the engine may do; names case-insensitive. */
  private static final Set<String> H2_OPTIONS =
      Set.of(
          "IFEXISTS",
          "MODE",
          "DATABASE_TO_LOWER",
          "DATABASE_TO_UPPER",
          "CASE_INSENSITIVE_IDENTIFIERS",
          "IGNORECASE",
          "NON_KEYWORDS",
          "DEFAULT_NULL_ORDERING",
          "LOCK_TIMEOUT",
          "QUERY_TIMEOUT",
          "SCHEMA",
          "NETWORK_TIMEOUT",
          "AUTO_RECONNECT",
          "TIME_ZONE",
          "ACCESS_MODE_DATA");

  /** Options whose refusal deserves its reason, not just "not allowed". */
  private static final Map<String, String> WHY =
      Map.ofEntries(
          Map.entry("INIT", "runs SQL (and so Java) when the connection opens"),
          Map.entry("TRACE_LEVEL_FILE", "writes a trace file"),
          Map.entry("TRACE_LEVEL_SYSTEM_OUT", "writes to the server's output"),
          Map.entry("socketFactory", "loads a class of the user's choice into the server"),
          Map.entry("socketFactoryArg", "configures a class of the user's choice"),
          Map.entry("sslfactory", "loads a class of the user's choice into the server"),
          Map.entry("sslfactoryarg", "configures a class of the user's choice"),
          Map.entry("sslhostnameverifier", "loads a class of the user's choice into the server"),
          Map.entry("sslpasswordcallback", "loads a class of the user's choice into the server"),
          Map.entry(
              "authenticationPluginClassName",
              "loads a class of the user's choice into the server"),
          Map.entry("xmlFactoryFactory", "loads a class of the user's choice into the server"),
          Map.entry("loggerFile", "writes a log file on the server"),
          Map.entry("loggerLevel", "turns on driver logging"),
          Map.entry("sslcert", "reads a file on the server"),
          Map.entry("sslkey", "reads a file on the server"),
          Map.entry("sslrootcert", "reads a file on the server"),
          Map.entry("options", "sets database settings past the server's defaults"),
          Map.entry("password", "puts a password in the URL; use the Password element"),
          Map.entry("user", "puts the user in the URL; use the UserId element"));

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.~-]+");
  private static final Pattern H2_VALUE = Pattern.compile("[A-Za-z0-9_.,+-]*");

  /**
   * Parses and checks {@code url}; the exception's message says what is wrong, in a user's words.
   */
  public static InlineJdbcUrl parse(String url) {
    String u = url.strip();
    if (u.startsWith(POSTGRES)) {
      return postgres(u);
    }
    for (String prefix : H2_SERVERS) {
      if (u.startsWith(prefix)) {
        return h2(u, prefix);
      }
    }
    if (u.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:")) {
      throw new IllegalArgumentException(
          "H2 is reachable only through its TCP server (jdbc:h2:tcp://host:port/path):"
              + " an embedded URL (file:, mem:, zip:, split:, ...) would open the database inside the Gantry server");
    }
    throw new IllegalArgumentException(
        "inline data sources must be jdbc:postgresql://host/database or"
            + " jdbc:h2:tcp://host/path URLs; other drivers are not accepted");
  }

  private static InlineJdbcUrl postgres(String u) {
    String rest = u.substring(POSTGRES.length());
    int question = rest.indexOf('?');
    String address = question < 0 ? rest : rest.substring(0, question);
    int slash = address.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(
          "a PostgreSQL URL needs a database: jdbc:postgresql://host:port/database");
    }
    String database = address.substring(slash + 1);
    if (!NAME.matcher(database).matches()) {
      throw new IllegalArgumentException(
          "the database name '" + database + "' may hold only letters, digits and _ . ~ -");
    }
    List<HostPort> hosts = hosts(address.substring(0, slash), 5432);
    if (question >= 0) {
      for (String pair : rest.substring(question + 1).split("&", -1)) {
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        if (!POSTGRES_OPTIONS.contains(key)) {
          throw refused(key, "PostgreSQL");
        }
      }
    }
    return new InlineJdbcUrl(POSTGRES + address, hosts);
  }

  private static InlineJdbcUrl h2(String u, String prefix) {
    String rest = u.substring(prefix.length());
    int semicolon = rest.indexOf(';');
    String address = semicolon < 0 ? rest : rest.substring(0, semicolon);
    int slash = address.indexOf('/');
    if (slash < 0 || slash == address.length() - 1) {
      throw new IllegalArgumentException(
          "an H2 server URL needs a database path: jdbc:h2:tcp://host:port/path");
    }
    String path = address.substring(slash + 1);
    if (path.indexOf(':') >= 0 || path.indexOf('\\') >= 0) {
      throw new IllegalArgumentException(
          "the H2 database path '"
              + path
              + "' names a storage kind or drive"
              + " (file:, mem:, zip:, split:, ...); give a plain path on the H2 server");
    }
    List<HostPort> hosts = hosts(address.substring(0, slash), 9092);
    if (semicolon >= 0) {
      for (String setting : rest.substring(semicolon + 1).split(";", -1)) {
        if (setting.isEmpty()) {
          continue;
        }
        int eq = setting.indexOf('=');
        String key = (eq < 0 ? setting : setting.substring(0, eq)).strip();
        String value = eq < 0 ? "" : setting.substring(eq + 1);
        if (!H2_OPTIONS.contains(key.toUpperCase(Locale.ROOT))) {
          throw refused(key.toUpperCase(Locale.ROOT), "H2");
        }
        if (!H2_VALUE.matcher(value).matches()) {
          throw new IllegalArgumentException(
              "the value of H2 setting "
                  + key
                  + " may hold only letters, digits"
                  + " and _ . , + -");
        }
        if (key.equalsIgnoreCase("ACCESS_MODE_DATA") && !value.equalsIgnoreCase("r")) {
          throw new IllegalArgumentException(
              "H2 setting ACCESS_MODE_DATA may only be r (read-only)");
        }
      }
    }
    return new InlineJdbcUrl(prefix + address, hosts);
  }

  private static IllegalArgumentException refused(String key, String driver) {
    String why = WHY.get(key);
    return new IllegalArgumentException(
        "the "
            + driver
            + " URL option "
            + key
            + " is not allowed"
            + (why == null
                ? " (inline data sources accept only the options listed in staging-gateway/README.md)"
                : ": it " + why));
  }

  private static List<HostPort> hosts(String list, int defaultPort) {
    if (list.isEmpty()) {
      throw new IllegalArgumentException("the URL names no host");
    }
    List<HostPort> hosts = new ArrayList<>();
    for (String one : list.split(",")) {
      if (one.contains("@")) {
        throw new IllegalArgumentException(
            "the host '" + one + "' carries a user; use the UserId element");
      }
      HostPort hp = HostPort.parse(one, defaultPort);
      if (!Pattern.matches("[a-z0-9.:_-]+", hp.host())) {
        throw new IllegalArgumentException("'" + one + "' is not a host name or address");
      }
      hosts.add(hp);
    }
    return hosts;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the URL option name '" + text + "' is not validly %-encoded");
    }
  }
}
