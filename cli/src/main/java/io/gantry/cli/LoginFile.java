package io.gantry.cli;

import io.gantry.soap.FingerprintTrustManager;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * The file {@code gantry login} writes and the other commands take their defaults from: {@code
 * $GANTRY_CONFIG}, else {@code $XDG_CONFIG_HOME/gantry/config.properties}, else {@code
 * ~/.config/gantry/config.properties}; Java properties with the keys {@code server}, {@code user},
 * {@code server-fingerprint}, {@code session-token} and {@code session-token-id}, never a password.
 * The session token is a credential until it expires or is revoked, one more reason for what
 * follows.
 *
 * <p>The pinned fingerprint decides which server receives the user's password, so the file is the
 * user's alone:
 *
 * <ol>
 *   <li>it is written as an owner-only temporary file (0600; a directory it creates, 0700) that is
 *       then renamed over the old one, so no one ever sees it half written or more open;
 *   <li>a file that group or others may read or write is refused, as ssh refuses such a key:
 *       someone else could have put their own server and certificate in it.
 * </ol>
 *
 * On a file system without POSIX permissions neither applies.
 */
final class LoginFile {
  static final String VARIABLE = "GANTRY_CONFIG";
  static final String SERVER = "server";
  static final String USER = "user";
  static final String FINGERPRINT = "server-fingerprint";
  static final String TOKEN = "session-token";
  static final String TOKEN_ID = "session-token-id";

  private final Path path;

  LoginFile(Path path) {
    this.path = path;
  }

  /** The login file the environment names, as the class comment says. */
  static LoginFile of(Map<String, String> environment) {
    String explicit = environment.get(VARIABLE);
    if (explicit != null && !explicit.isBlank()) {
      return new LoginFile(Path.of(explicit));
    }
    // the XDG base directory rules: a relative XDG_CONFIG_HOME is invalid and ignored
    String xdg = environment.get("XDG_CONFIG_HOME");
    Path configHome =
        xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
            ? Path.of(xdg)
            : Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".config");
    return new LoginFile(configHome.resolve("gantry").resolve("config.properties"));
  }

  Path path() {
    return path;
  }

  /**
   * The stored login, or empty when there is no file; a CommandFailure (exit 2) when it cannot be
   * used.
   */
  Optional<StoredLogin> read() {
    if (!Files.exists(path)) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try {
      refuseUnlessPrivate();
      try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
        properties.load(in);
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "cannot read " + path + ": " + e.getMessage(), e);
    }
    return Optional.of(checked(properties));
  }

  private void refuseUnlessPrivate() throws IOException {
    if (!posix()) {
      return;
    }
    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
    if (permissions.stream()
        .anyMatch(p -> p.name().startsWith("GROUP_") || p.name().startsWith("OTHERS_"))) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO,
          path
              + " is open to other users ("
              + PosixFilePermissions.toString(permissions)
              + "); it says which server gets your password, so"
              + " gantry does not use it: chmod 600 "
              + path
              + " if you trust what it says, else remove it"
              + " and run gantry login again");
    }
  }

  /** Checked as it is loaded, each problem named by its key. */
  private StoredLogin checked(Properties properties) {
    String server = value(properties, SERVER);
    if (server == null || !(server.startsWith("https://") || server.startsWith("http://"))) {
      throw invalid(
          SERVER
              + " must be an https:// or http:// URL, not "
              + (server == null ? "missing" : "'" + server + "'"));
    }
    String fingerprint = value(properties, FINGERPRINT);
    if (fingerprint != null) {
      try {
        fingerprint = FingerprintTrustManager.canonical(fingerprint);
      } catch (IllegalArgumentException e) {
        throw invalid(FINGERPRINT + ": " + e.getMessage());
      }
    }
    return new StoredLogin(
        server,
        value(properties, USER),
        fingerprint,
        value(properties, TOKEN),
        value(properties, TOKEN_ID));
  }

  private static String value(Properties properties, String key) {
    String value = properties.getProperty(key);
    return value == null || value.isBlank() ? null : value.strip();
  }

  private CommandFailure invalid(String problem) {
    return new CommandFailure(
        ExitCodes.USAGE_OR_IO, path + ": " + problem + "; run gantry login again");
  }

  /** Replaces the file with {@code login}, atomically and owner-only (see the class comment). */
  void write(StoredLogin login) {
    Path directory = path.toAbsolutePath().getParent();
    Path temporary = null;
    try {
      Files.createDirectories(directory, permissions("rwx------"));
      temporary =
          Files.createTempFile(directory, ".gantry-login-", ".tmp", permissions("rw-------"));
      try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
        out.write(
            "# written by gantry login; no password is kept here, but the session token is a"
                + " credential: keep this file to yourself\n");
        line(out, SERVER, login.server());
        line(out, USER, login.user());
        line(out, FINGERPRINT, login.fingerprint());
        line(out, TOKEN, login.token());
        line(out, TOKEN_ID, login.tokenId());
      }
      Files.move(
          temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "cannot write " + path + ": " + e.getMessage(), e);
    } finally {
      deleteQuietly(temporary);
    }
  }

  /** key=value, escaped so that a line break in a user name cannot add a line of its own. */
  private static void line(Writer out, String key, String value) throws IOException {
    if (value == null) {
      return;
    }
    String escaped = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    out.write(key + "=" + escaped + "\n");
  }

  private FileAttribute<?>[] permissions(String mode) {
    return posix()
        ? new FileAttribute<?>[] {
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode))
        }
        : new FileAttribute<?>[0];
  }

  private boolean posix() {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  private static void deleteQuietly(Path temporary) {
    if (temporary == null) {
      return;
    }
    try {
      Files.deleteIfExists(temporary);
    } catch (IOException e) {
      // only left over after a failed write, which was reported already
    }
  }
}
