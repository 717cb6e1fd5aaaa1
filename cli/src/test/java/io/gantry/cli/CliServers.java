package io.gantry.cli;

import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.SharedGantryServers;
import io.gantry.testing.server.TestAccount;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The two real gantry-servers the CLI's tests share, one each per test JVM ({@link
 * SharedGantryServers}): a test class asks for one with {@code @ExtendWith(CliServers.Plain.class)}
 * or {@code CliServers.Secure.class} and takes a {@link GantryTestServer} parameter.
 */
final class CliServers {
  static final String ADMIN = "admin";
  static final String ALICE = "alice";
  static final String BOB = "bob";

  private CliServers() {}

  /**
   * Plain HTTP as the single local user, with a small demo market: these tests are about the
   * commands (TLS and accounts: {@link Secure}). Two compute slots, so that two running jobs leave
   * a third one QUEUED (cancel needs one that has not started).
   */
  static final class Plain extends Resolver {
    Plain() {
      super(
          "cli-plain",
          dir ->
              GantryTestServer.builder(dir)
                  .demo(50)
                  .slots(2)
                  // a named application, for gantry applications (ApplicationsCommandTest)
                  .setting("application.greet.executable", "/bin/echo")
                  .setting("application.greet.description", "says hello")
                  // what gantry notify add may name (TemplatesAndSchedulesCliTest)
                  .setting("notify.allowed-hosts", "localhost")
                  .setting("notify.mail-allowed", "bank.example"));
    }
  }

  /** TLS (its generated, self-signed certificate) and the accounts admin, alice and bob. */
  static final class Secure extends Resolver {
    Secure() {
      super(
          "cli-secure",
          dir ->
              GantryTestServer.builder(dir)
                  .secure()
                  .slots(2)
                  .account(TestAccount.admin(ADMIN))
                  .account(TestAccount.user(ALICE))
                  .account(TestAccount.user(BOB)));
    }
  }

  /** Gives test methods and {@code @BeforeAll} methods the shared server as a parameter. */
  abstract static class Resolver implements ParameterResolver {
    private final String name;
    private final SharedGantryServers.Definition definition;

    Resolver(String name, SharedGantryServers.Definition definition) {
      this.name = name;
      this.definition = definition;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == GantryTestServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return SharedGantryServers.get(context, name, definition);
    }
  }

  /** gantry in this JVM against {@code server} as {@code user}, trusting it by its fingerprint. */
  static GantryRun as(GantryTestServer server, String user) {
    return new GantryRun(
        List.of(
            "--server",
            server.baseUrl(),
            "--server-fingerprint",
            server.fingerprint().orElseThrow(),
            "--user",
            user),
        Map.of(
            LoginFile.VARIABLE,
            GantryRun.NO_LOGIN_FILE.toString(),
            Invocation.PASSWORD_VARIABLE,
            server.account(user).password()),
        Optional.empty());
  }

  /** A loopback URL where nothing listens: the port was free a moment ago and is closed again. */
  static String deadUrl() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }
  }
}
