package io.gantry.cli;

import io.gantry.server.GantryServer;
import io.gantry.server.GantryServerCommand;
import io.gantry.server.config.ServerConfigLoader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import picocli.CommandLine;

/**
 * One real gantry-server with TLS (its generated, self-signed certificate) and user accounts,
 * shared by the tests in a JVM, on a free loopback port: the administrator admin and the users
 * alice and bob, added as an operator adds them ({@code gantry-server user add}) before the
 * server starts, because H2 lets one process at a time open the job store.
 */
final class SecureServer implements AutoCloseable {
  static final String ADMIN = "admin";
  static final String ALICE = "alice";
  static final String BOB = "bob";

  private final GantryServer server;

  /** Gives test methods and {@code @BeforeAll} methods the shared server as a parameter. */
  static final class Resolver implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == SecureServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return context.getRoot().getStore(Namespace.GLOBAL)
          .getOrComputeIfAbsent(SecureServer.class, key -> start(), SecureServer.class);
    }
  }

  private SecureServer(GantryServer server) {
    this.server = server;
  }

  /** Each user's password (the server wants at least 12 characters). */
  static String passwordOf(String user) {
    return user + "'s long password";
  }

  private static SecureServer start() {
    try {
      Path dataDir = Files.createTempDirectory("gantry-cli-secure-server");
      addUser(dataDir, ADMIN, true);
      addUser(dataDir, ALICE, false);
      addUser(dataDir, BOB, false);
      return new SecureServer(GantryServer.start(new ServerConfigLoader().load(null, Map.of(
          "listen.host", "127.0.0.1", "listen.port", "0", "data.dir", dataDir.toString(),
          "demo.enabled", "false", "slots.total", "2", "tls.enabled", "true", "auth.enabled", "true"))));
    } catch (Exception e) {
      throw new IllegalStateException("cannot start gantry-server with TLS and accounts: " + e, e);
    }
  }

  private static void addUser(Path dataDir, String name, boolean admin) {
    InputStream stdin = System.in;
    System.setIn(new ByteArrayInputStream((passwordOf(name) + "\n").getBytes(StandardCharsets.UTF_8)));
    try {
      String[] args = admin ? new String[] {"user", "add", name, "--admin", "--data-dir", dataDir.toString()}
          : new String[] {"user", "add", name, "--data-dir", dataDir.toString()};
      int code = new CommandLine(new GantryServerCommand()).execute(args);
      if (code != 0) {
        throw new IllegalStateException("gantry-server user add " + name + " exited with " + code);
      }
    } finally {
      System.setIn(stdin);
    }
  }

  /** What the user passes as --server: the base URL, without the endpoint path. */
  String baseUrl() {
    return "https://127.0.0.1:" + server.address().getPort();
  }

  /** The certificate's SHA-256 fingerprint, as gantry-server prints it at start. */
  String fingerprint() {
    return server.tlsFingerprint().orElseThrow();
  }

  /** gantry in this JVM against this server as {@code user}, trusting it by its fingerprint. */
  GantryRun as(String user) {
    return new GantryRun(List.of("--server", baseUrl(), "--server-fingerprint", fingerprint(),
        "--user", user), Map.of(LoginFile.VARIABLE, GantryRun.NO_LOGIN_FILE.toString(),
        GantryCommand.PASSWORD_VARIABLE, passwordOf(user)), Optional.empty());
  }

  @Override
  public void close() {
    server.close();
  }
}
