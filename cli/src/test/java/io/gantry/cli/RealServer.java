package io.gantry.cli;

import io.gantry.server.GantryServer;
import io.gantry.server.config.ServerConfigLoader;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real gantry-server for all the CLI's tests in a JVM, on a free loopback port, with its
 * own data directory and a small demo market, over plain HTTP as its single local user;
 * stopped when the test run ends. Two compute
 * slots, so that two running jobs leave a third one QUEUED (cancel needs one that has not
 * started).
 */
final class RealServer implements AutoCloseable {
  private final GantryServer server;
  private final Path dataDir;

  /** Gives test methods and {@code @BeforeAll} methods the shared server as a parameter. */
  static final class Resolver implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == RealServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return of(context);
    }
  }

  private RealServer(GantryServer server, Path dataDir) {
    this.server = server;
    this.dataDir = dataDir;
  }

  /** The server's data directory (its password key pair lives in keys/). */
  Path dataDir() {
    return dataDir;
  }

  /** The shared server, started on first use. */
  static RealServer of(ExtensionContext context) {
    return context.getRoot().getStore(Namespace.GLOBAL)
        .getOrComputeIfAbsent(RealServer.class, key -> start(), RealServer.class);
  }

  private static RealServer start() {
    try {
      Path dataDir = Files.createTempDirectory("gantry-cli-test-server");
      return new RealServer(GantryServer.start(new ServerConfigLoader().load(null, Map.of(
          "listen.port", "0", "data.dir", dataDir.toString(), "demo.enabled", "true", "demo.positions", "50",
          "slots.total", "2", "limits.kill-grace", "PT2S",
          // plain HTTP and the single local user, chosen explicitly: these tests are about the
          // commands; SecureServerIT runs the CLI against TLS and accounts
          "tls.enabled", "false", "auth.enabled", "false",
          // a named application, for gantry applications (ApplicationsCommandTest)
          "application.greet.executable", "/bin/echo",
          "application.greet.description", "says hello"))), dataDir);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start gantry-server for the CLI tests: " + e, e);
    }
  }

  /** What the user passes as --server: the base URL, without the endpoint path. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.address().getPort();
  }

  String jobManagementUrl() {
    return server.jobManagementUrl();
  }

  /** A loopback URL where nothing listens: the port was free a moment ago and is closed again. */
  static String deadUrl() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
