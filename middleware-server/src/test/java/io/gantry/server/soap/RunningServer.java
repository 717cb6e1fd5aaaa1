package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.fail;

import io.gantry.server.GantryServer;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.soap.FingerprintTrustManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.TrustManager;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import org.apache.cxf.configuration.jsse.TLSClientParameters;
import org.apache.cxf.configuration.security.AuthorizationPolicy;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.ext.WSPasswordCallback;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.handler.WSHandlerConstants;
import java.util.function.Predicate;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.transport.http.HTTPConduit;
import org.apache.cxf.transports.http.configuration.HTTPClientPolicy;

/**
 * A real gantry-server for tests: {@link GantryServer} on 127.0.0.1, port chosen by the system,
 * with its own data directory, configured through the same {@link ServerConfigLoader} as the
 * launcher. Clients reach it only over HTTP: a CXF proxy of {@link JobManagement}, or {@link
 * RawSoapClient} with no CXF at all.
 */
public final class RunningServer implements AutoCloseable {
  private final GantryServer server;
  private final Path dataDir;

  private RunningServer(GantryServer server, Path dataDir) {
    this.server = server;
    this.dataDir = dataDir;
  }

  /**
   * Starts a server in {@code dataDir}; {@code settings} override the test defaults (no demo
   * database, 2 slots, short kill grace, plain HTTP, single user), chosen so that tests start fast.
   */
  public static RunningServer start(Path dataDir, Map<String, String> settings) throws Exception {
    return new RunningServer(GantryServer.start(new ServerConfigLoader().load(null,
        testSettings(dataDir, settings))), dataDir);
  }

  /** The settings a test server runs on, as the configuration file would give them. */
  public static Map<String, String> testSettings(Path dataDir, Map<String, String> settings) {
    Map<String, String> all = new HashMap<>();
    all.put("listen.host", "127.0.0.1");
    all.put("listen.port", "0");
    all.put("data.dir", dataDir.toString());
    all.put("demo.enabled", "false");
    all.put("slots.total", "2");
    all.put("limits.kill-grace", "PT2S");
    // Plain HTTP and the single local user, chosen explicitly (loopback only): these tests are
    // about the job lifecycle; TLS and accounts are tested with secureSettings().
    all.put("tls.enabled", "false");
    all.put("auth.enabled", "false");
    // staging targets of these tests (SSH test hosts, closed ports) are on loopback, which a
    // real server reaches only when its operator lists it
    all.put("staging.allowed-hosts", "127.0.0.1");
    all.putAll(settings);
    return all;
  }

  /** The settings of a server with TLS (self-signed, generated) and user accounts. */
  public static Map<String, String> secureSettings() {
    return Map.of("tls.enabled", "true", "auth.enabled", "true");
  }

  /**
   * Adds a user to the job store in {@code dataDir} as an operator would, with {@code
   * gantry-server user add}, the password on standard input. Run it before the server starts:
   * H2 lets one process at a time open the store.
   */
  public static void addUser(Path dataDir, String name, String password, boolean admin) {
    addUser(dataDir, name, password, admin, null);
  }

  /**
   * Adds a user whose jobs run under {@code osAccount} ({@code user add NAME --os-account
   * ACCOUNT}); null for the server's jobs.default-os-account.
   */
  public static void addUser(Path dataDir, String name, String password, boolean admin, String osAccount) {
    java.io.InputStream stdin = System.in;
    try {
      System.setIn(new java.io.ByteArrayInputStream((password + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("user", "add", name,
          "--config", testConfig(dataDir).toString()));
      if (admin) {
        args.add("--admin");
      }
      if (osAccount != null) {
        args.addAll(java.util.List.of("--os-account", osAccount));
      }
      int code = new picocli.CommandLine(new io.gantry.server.GantryServerCommand()).execute(args.toArray(String[]::new));
      if (code != 0) {
        fail("gantry-server user add " + name + " exited with " + code
            + (osAccount == null ? "" : " (is OS account " + osAccount + " there? run scripts/create-test-accounts)"));
      }
    } finally {
      System.setIn(stdin);
    }
  }

  /** A configuration file with the test settings for {@code dataDir}, as the launcher reads it. */
  public static Path testConfig(Path dataDir) {
    try {
      if (!java.nio.file.Files.isDirectory(dataDir)) {
        // as an operator would make it: the server refuses a data directory others may list
        java.nio.file.Files.createDirectories(dataDir);
        java.nio.file.Files.setPosixFilePermissions(dataDir,
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
      }
      Path file = dataDir.resolveSibling(dataDir.getFileName() + ".properties");
      java.util.Properties p = new java.util.Properties();
      p.putAll(testSettings(dataDir, Map.of()));
      try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(file)) {
        p.store(w, "test server");
      }
      return file;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The port of the demo's SSH host, when the demo runs. */
  public java.util.OptionalInt demoSshPort() {
    return server.demoSshPort();
  }

  /**
   * A job's directory on this host. Tests reach a running job through files here (a "release"
   * file the job waits for): the job's sandbox shows it nothing of the test's own directories.
   */
  public Path jobDirectory(String jobId) {
    return dataDir.resolve("jobs").resolve(jobId);
  }

  public String url() {
    return server.jobManagementUrl();
  }

  /** The SOAP 1.2 binding of the same service. */
  public String soap12Url() {
    return url().replace("/services/", "/services/soap12/");
  }

  /** A CXF client of the job-management port, as a Java user of Gantry would write it. */
  public JobManagement cxfClient() {
    return cxfClient(url());
  }

  public static JobManagement cxfClient(String url) {
    return cxfClient(url, null, Login.ANONYMOUS);
  }

  /** A CXF client that trusts this server's certificate by its fingerprint and logs in so. */
  public JobManagement cxfClient(Login login) {
    return cxfClient(url(), fingerprint().orElse(null), login);
  }

  /**
   * A CXF client of {@code url}; over https it trusts only the certificate with {@code
   * fingerprint} (SHA-256), as a user who was told the fingerprint would configure it.
   */
  public static JobManagement cxfClient(String url, String fingerprint, Login login) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setServiceClass(JobManagement.class);
    factory.setAddress(url);
    if (login instanceof Login.UsernameToken token) {
      factory.getOutInterceptors().add(usernameToken(token));
    }
    JobManagement port = (JobManagement) factory.create();
    Client client = ClientProxy.getClient(port);
    HTTPClientPolicy policy = new HTTPClientPolicy();
    policy.setConnectionTimeout(10_000);
    policy.setReceiveTimeout(60_000);
    HTTPConduit conduit = (HTTPConduit) client.getConduit();
    conduit.setClient(policy);
    if (fingerprint != null) {
      TLSClientParameters tls = new TLSClientParameters();
      tls.setTrustManagers(new TrustManager[] {new FingerprintTrustManager(fingerprint)});
      conduit.setTlsClientParameters(tls);
    }
    if (login instanceof Login.Basic basic) {
      AuthorizationPolicy authorization = new AuthorizationPolicy();
      authorization.setUserName(basic.user());
      authorization.setPassword(basic.password());
      authorization.setAuthorizationType("Basic");
      conduit.setAuthorization(authorization);
    }
    return port;
  }

  private static WSS4JOutInterceptor usernameToken(Login.UsernameToken token) {
    Map<String, Object> settings = new HashMap<>();
    settings.put(WSHandlerConstants.ACTION, WSHandlerConstants.USERNAME_TOKEN);
    settings.put(WSHandlerConstants.USER, token.user());
    settings.put(WSHandlerConstants.PASSWORD_TYPE,
        token.digest() ? WSConstants.PW_DIGEST : WSConstants.PW_TEXT);
    CallbackHandler passwords = callbacks -> {
      for (Callback c : callbacks) {
        ((WSPasswordCallback) c).setPassword(token.password());
      }
    };
    settings.put(WSHandlerConstants.PW_CALLBACK_REF, passwords);
    return new WSS4JOutInterceptor(settings);
  }

  /** The SHA-256 fingerprint of the server's TLS certificate; empty over plain HTTP. */
  public Optional<String> fingerprint() {
    return server.tlsFingerprint();
  }

  public RawSoapClient rawClient() {
    return new RawSoapClient(url());
  }

  @Override
  public void close() {
    server.close();
  }

  /** Polls the job's status until it is final; fails the test after {@code timeout}. */
  public static JobStatusInfo awaitFinal(JobManagement client, String jobId, Duration timeout)
      throws JobNotFoundFault, InterruptedException {
    return await(client, jobId, timeout, s -> TestJobs.isFinal(s.state), "a final state");
  }

  /** Polls the job's status until {@code condition} holds; fails the test after {@code timeout}. */
  public static JobStatusInfo await(JobManagement client, String jobId, Duration timeout,
      Predicate<JobStatusInfo> condition, String what) throws JobNotFoundFault, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    JobStatusInfo status = client.getJobStatus(jobId);
    while (!condition.test(status)) {
      if (System.nanoTime() > deadline) {
        fail("job " + jobId + " did not reach " + what + " within " + timeout.toSeconds()
            + " s; it is " + status.state + " (" + status.phase + ", " + status.failureReason + ")");
      }
      Thread.sleep(50);
      status = client.getJobStatus(jobId);
    }
    return status;
  }
}
