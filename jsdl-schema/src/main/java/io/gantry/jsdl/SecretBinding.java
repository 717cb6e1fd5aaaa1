package io.gantry.jsdl;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whom an encrypted password belongs to and where it may be sent: the Gantry user whose jobs may
 * use it and its destination, in the one canonical form both the encrypting client and the server
 * compute, so that they agree byte for byte on the RSA-OAEP label.
 *
 * <p>A destination is one of:
 *
 * <ol>
 *   <li>a JDBC URL, exactly as the job writes it in {@code DataSource/JDBCURL} (only surrounding
 *       white space removed). Nothing is normalised: the driver reads every character (hosts,
 *       ports, failover lists, options), so two URLs that differ in any way are two destinations.
 *   <li>an SSH login {@code user@host:port}, for a {@code RemotePassword}: the job's RemoteUserId,
 *       RemoteHostName and RemotePort. The host is lower-cased (DNS names are case-insensitive),
 *       the port is always written (22 when the job gives none), an IPv6 address is written in
 *       brackets. Names are not resolved: {@code db.example} and its IP address are two
 *       destinations.
 *   <li>a URI login {@code scheme://user@host:port}, for the password of a standard DataStaging
 *       Source or Target ({@code UsernameToken}): scheme and host lower-cased, the scheme's port
 *       always written. The scheme is part of it, so a value made for ftps is refused for ftp.
 * </ol>
 *
 * @param user the Gantry user name (1-64 letters, digits, '.', '_', '@' or '-')
 * @param destination the canonical destination
 */
public record SecretBinding(String user, String destination) {
  public static final int DEFAULT_SSH_PORT = 22;
  private static final Pattern USER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
  private static final Pattern URI_LOGIN =
      Pattern.compile(
          "(?i)(https?|s?ftp|ftps|scp)://([^@\\s/]+)@(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(?::(\\d{1,5}))?/?");
  private static final Pattern SSH =
      Pattern.compile("([^@\\s]+)@(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(?::(\\d{1,5}))?");

  public SecretBinding {
    if (user == null || !USER.matcher(user).matches()) {
      throw new IllegalArgumentException(
          "the user '"
              + user
              + "' is not a Gantry user name (1 to 64 letters,"
              + " digits, '.', '_', '@' or '-', starting with a letter or digit)");
    }
    if (destination == null || !canonical(destination).equals(destination)) {
      throw new IllegalArgumentException(
          "the destination '" + destination + "' is not in canonical form");
    }
  }

  /**
   * A binding for a destination as a person typed it ({@code --for-destination}, the wizard): a
   * JDBC URL, or {@code user@host} with an optional {@code :port}.
   */
  public static SecretBinding of(String user, String destination) {
    return new SecretBinding(user, canonical(destination));
  }

  /** The binding of an inline data source's password: its JDBC URL as written. */
  public static SecretBinding jdbc(String user, String jdbcUrl) {
    return of(user, requireJdbc(jdbcUrl));
  }

  /** The binding of a RemotePassword: the transfer's remote user, host and port. */
  public static SecretBinding ssh(String user, String remoteUser, String host, int port) {
    String h = host == null ? "" : host.strip();
    if (h.contains(":") && !h.startsWith("[")) {
      h = "[" + h + "]";
    }
    return of(user, (remoteUser == null ? "" : remoteUser.strip()) + "@" + h + ":" + port);
  }

  /**
   * The binding of a DataStaging UsernameToken password: {@code scheme://user@host:port} of the
   * URI.
   */
  public static SecretBinding uri(
      String user, String scheme, String remoteUser, String host, int port) {
    String h = host == null ? "" : host.strip();
    if (h.contains(":") && !h.startsWith("[")) {
      h = "[" + h + "]";
    }
    return of(
        user,
        scheme + "://" + (remoteUser == null ? "" : remoteUser.strip()) + "@" + h + ":" + port);
  }

  /** The command that makes a value for this binding, for messages. */
  public String command() {
    return "gantry encrypt-password --for-user "
        + user
        + " --for-destination "
        + quoted(destination);
  }

  /** The canonical form of a destination; IllegalArgumentException says what is wrong. */
  public static String canonical(String destination) {
    String d = destination == null ? "" : destination.strip();
    if (d.startsWith("jdbc:")) {
      return requireJdbc(d);
    }
    Matcher u = URI_LOGIN.matcher(d);
    if (u.matches()) {
      String scheme = u.group(1).toLowerCase(Locale.ROOT);
      int port = u.group(4) == null ? defaultPort(scheme) : Integer.parseInt(u.group(4));
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException(
            "the destination '" + d + "' has port " + port + "; a port is 1 to 65535");
      }
      return scheme + "://" + u.group(2) + "@" + u.group(3).toLowerCase(Locale.ROOT) + ":" + port;
    }
    Matcher m = SSH.matcher(d);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "the destination '"
              + d
              + "' is neither a JDBC URL (jdbc:...) nor an SSH"
              + " login user@host or user@host:port (an IPv6 address in brackets) nor a staging URI login"
              + " scheme://user@host:port (https, ftps, scp, sftp)");
    }
    int port = m.group(3) == null ? DEFAULT_SSH_PORT : Integer.parseInt(m.group(3));
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "the destination '" + d + "' has port " + port + "; a port is 1 to 65535");
    }
    return m.group(1) + "@" + m.group(2).toLowerCase(Locale.ROOT) + ":" + port;
  }

  private static int defaultPort(String scheme) {
    return switch (scheme) {
      case "http" -> 80;
      case "https" -> 443;
      case "ftp", "ftps" -> 21;
      default -> DEFAULT_SSH_PORT;
    };
  }

  private static String requireJdbc(String url) {
    String u = url == null ? "" : url.strip();
    if (!u.startsWith("jdbc:") || u.length() > 4096 || u.chars().anyMatch(c -> c < 0x20)) {
      throw new IllegalArgumentException(
          "the destination is not a JDBC URL (jdbc:..., one line, at most 4096" + " characters)");
    }
    return u;
  }

  /** Single quotes for a shell when the text needs them (JDBC URLs hold '&', '?' and ';'). */
  private static String quoted(String text) {
    return text.matches("[A-Za-z0-9@:._/\\[\\]-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
  }
}
