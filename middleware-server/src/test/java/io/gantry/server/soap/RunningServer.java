package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.fail;

import io.gantry.server.GantryServer;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.config.ServerConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
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
   * database, 2 slots, short kill grace), which are chosen so that tests start fast.
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
    all.putAll(settings);
    return all;
  }

  public Path dataDir() {
    return dataDir;
  }

  public String url() {
    return server.jobManagementUrl();
  }

  /** A CXF client of the job-management port, as a Java user of Gantry would write it. */
  public JobManagement cxfClient() {
    return cxfClient(url());
  }

  public static JobManagement cxfClient(String url) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setServiceClass(JobManagement.class);
    factory.setAddress(url);
    JobManagement port = (JobManagement) factory.create();
    Client client = ClientProxy.getClient(port);
    HTTPClientPolicy policy = new HTTPClientPolicy();
    policy.setConnectionTimeout(10_000);
    policy.setReceiveTimeout(60_000);
    ((HTTPConduit) client.getConduit()).setClient(policy);
    return port;
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
