package io.gantry.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.server.GantryServer;
import io.gantry.server.GantryServerCommand;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.soap.FingerprintTrustManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import picocli.CommandLine;

/**
 * gantry-server as a user gets it: HTTPS with its self-signed certificate, user accounts, the
 * demo market database and the demo SSH host (on a free port), and the web application found on
 * the class path. Accounts: {@code admin} (administrator), {@code alice} and {@code bob}.
 */
final class WebServer implements AutoCloseable {
  static final String ADMIN = "admin";
  static final String ALICE = "alice";
  static final String BOB = "bob";
  private static final Map<String, String> PASSWORDS = Map.of(
      ADMIN, "the administrator's password", ALICE, "alice's web password", BOB, "bob's web password");

  private final GantryServer server;
  private final Path dataDir;

  private WebServer(GantryServer server, Path dataDir) {
    this.server = server;
    this.dataDir = dataDir;
  }

  static String password(String user) {
    return PASSWORDS.get(user);
  }

  /** Starts a server in {@code dir} with these settings added (e.g. a short session timeout). */
  static WebServer start(Path dir, Map<String, String> extra) throws Exception {
    Path data = dir.resolve("server");
    Path adminPassword = Files.writeString(dir.resolve("admin.password"), PASSWORDS.get(ADMIN));
    Map<String, String> settings = new HashMap<>(Map.of(
        "listen.port", "0", "data.dir", data.toString(), "demo.enabled", "true", "demo.positions", "300",
        "demo.ssh-port", "0", "slots.total", "2", "admin.password-file", adminPassword.toString()));
    // jobs run sandboxed; the built mcvar is visible to them only from an allowed root
    settings.put("jobs.allowed-executable-roots",
        Path.of("..", "node-programs", "build").toAbsolutePath().normalize().toString());
    settings.putAll(extra);
    Path config = dir.resolve("gantry-server.properties");
    StringBuilder text = new StringBuilder();
    settings.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
    Files.writeString(config, text);
    // the first administrator comes from admin.password-file only on a store without users,
    // and these accounts are added before the server starts: add it as an operator would
    addUser(config, ADMIN, "--admin");
    addUser(config, ALICE);
    addUser(config, BOB);
    return new WebServer(GantryServer.start(new ServerConfigLoader().load(config, Map.of())), data);
  }

  /** {@code gantry-server user add}, as an operator would run it, password on standard input. */
  private static void addUser(Path config, String name, String... options) {
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream((PASSWORDS.get(name) + "\n").getBytes(StandardCharsets.UTF_8)));
      List<String> arguments = new ArrayList<>(List.of("user", "add", name, "--config", config.toString()));
      arguments.addAll(List.of(options));
      int code = new CommandLine(new GantryServerCommand()).execute(arguments.toArray(String[]::new));
      assertEquals(0, code, "gantry-server user add " + name);
    } finally {
      System.setIn(stdin);
    }
  }

  String url(String path) {
    return "https://127.0.0.1:" + server.address().getPort() + path;
  }

  String fingerprint() {
    return server.tlsFingerprint().orElseThrow();
  }

  int demoSshPort() {
    return server.demoSshPort().orElseThrow();
  }

  Path dataDir() {
    return dataDir;
  }

  /** An HTTP client that trusts exactly this server's certificate and never uses a proxy. */
  HttpClient httpClient() throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new FingerprintTrustManager(fingerprint())}, null);
    return HttpClient.newBuilder().sslContext(tls).proxy(HttpClient.Builder.NO_PROXY)
        .connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** Submits a job as {@code user} through the SOAP API (HTTP Basic); returns its id. */
  String submitAs(String user, String jsdl) throws Exception {
    String envelope = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:g=\"urn:gantry:jobmanagement:1\">"
        + "<s:Body><g:submitJob><g:jobDefinition>" + jsdl.replaceFirst("^<\\?xml[^>]*\\?>", "")
        + "</g:jobDefinition></g:submitJob></s:Body></s:Envelope>";
    String basic = Base64.getEncoder().encodeToString((user + ":" + PASSWORDS.get(user)).getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> answer = httpClient().send(HttpRequest.newBuilder(URI.create(url("/services/JobManagement")))
        .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"\"")
        .header("Authorization", "Basic " + basic)
        .POST(HttpRequest.BodyPublishers.ofString(envelope, StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString());
    Matcher id = Pattern.compile("<jobId>([a-z2-7]{32})</jobId>").matcher(answer.body());
    if (answer.statusCode() != 200 || !id.find()) {
      throw new IOException("submit as " + user + " answered " + answer.statusCode() + ": " + answer.body());
    }
    return id.group(1);
  }

  /** A POSIX job that echoes {@code text}, as JSDL. */
  static String echoJob(String name, String text) {
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\"><jsdl:JobDescription>"
        + "<jsdl:JobIdentification><jsdl:JobName>" + name + "</jsdl:JobName></jsdl:JobIdentification>"
        + "<jsdl:Application><posix:POSIXApplication><posix:Executable>/bin/echo</posix:Executable>"
        + "<posix:Argument>" + text + "</posix:Argument></posix:POSIXApplication></jsdl:Application>"
        + "</jsdl:JobDescription></jsdl:JobDefinition>";
  }

  @Override
  public void close() {
    server.close();
  }
}
