package io.gantry.server.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.demo.DemoMarket;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl, demo on) run with the same text on every
 * compute backend: mpirun on the server's host, Open MPI over ssh across two sshd hosts, and a
 * two-node Slurm cluster. Every backend writes the same numbers into the demo database.
 */
class SameJobOnEveryBackendTest {
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");
  private static NamespaceCluster cluster;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() throws Exception {
    // Slurm runs jobs under their owner's OS account outside a sandbox: it must reach the job
    // directory.
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    cluster = NamespaceCluster.builder().nodes(2).cpusPerNode(2).slurm().sshd().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theSampleVarJobGivesTheSameResultsOnLocalMpirunHostsAndSlurm() throws Exception {
    Path wrapper = work.resolve("mpirun-on-login");
    // mpirun on the cluster's login host; the ssh settings come from the server's configuration.
    Files.writeString(
        wrapper,
        "#!/bin/sh\nexec nsenter --net=/run/netns/"
            + cluster.loginNamespace()
            + " -- mpirun \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));

    List<String> local = run("local", Map.of());
    List<String> hosts =
        run(
            "mpirun-hosts",
            Map.of(
                "compute.backend",
                "mpirun-hosts",
                "mpirun.path",
                wrapper.toString(),
                "mpirun.hostfile",
                cluster.hostfile().toString(),
                "mpirun.ssh-identity",
                cluster.sshPrivateKey().toString(),
                "mpirun.ssh-known-hosts",
                cluster.knownHosts().toString(),
                "mpirun.ssh-user",
                cluster.sshUser()));
    List<String> slurm =
        run(
            "slurm",
            Map.of(
                "compute.backend",
                "slurm",
                "slurm.bin-dir",
                cluster.clientBin().toString(),
                "slurm.conf",
                cluster.slurmConf().toString(),
                "slurm.poll-interval",
                "1"));

    assertFalse(local.isEmpty());
    assertEquals(local, hosts, "mpirun-hosts");
    assertEquals(local, slurm, "slurm");
  }

  /**
   * Runs the sample on a fresh server with {@code backend} settings; its results, run id left out.
   */
  private List<String> run(String name, Map<String, String> backend) throws Exception {
    Path dataDir = work.resolve(name);
    Map<String, String> settings =
        new HashMap<>(
            Map.of(
                "demo.enabled",
                "true",
                "demo.positions",
                "300",
                "demo.ssh-port",
                "0",
                "jobs.allowed-executable-roots",
                MCVAR.getParent().toString()));
    settings.putAll(backend);
    try (GantryTestServer server =
        GantryTestServer.builder(work.resolve(name + "-server"))
            .dataDir(dataDir)
            .settings(settings)
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      String xml =
          Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
              .replace(
                  "<gx:RemotePort>2222</gx:RemotePort>",
                  "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
              .replace(
                  "<gx:Executable>mcvar</gx:Executable>",
                  "<gx:Executable>" + MCVAR + "</gx:Executable>");
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      String id =
          client.submitJob(
              new JobDocument(
                  f.newDocumentBuilder()
                      .parse(new InputSource(new StringReader(xml)))
                      .getDocumentElement()));
      JobStatusInfo end = TestJobs.awaitFinal(client, id, Duration.ofMinutes(3));
      assertEquals(JobStateName.SUCCEEDED, end.state, name + ": " + end.failureReason);
      server
          .close(); // the demo database is a file of the server's, which H2 opens in one process at
      // a time
      return results(dataDir, id);
    }
  }

  private static List<String> results(Path dataDir, String runId) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c =
        DriverManager.getConnection(
            new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "")) {
      rows.addAll(
          query(
              c,
              "SELECT node, confidence, var, expected_shortfall, var_stderr, es_stderr,"
                  + " pnl_mean, pnl_stddev, scenarios, diversification_var, diversification_es"
                  + " FROM var_node_summary WHERE run_id = ? ORDER BY node, confidence",
              runId));
      rows.addAll(
          query(
              c,
              "SELECT node, bin, lower, upper, count FROM var_node_pnl_distribution"
                  + " WHERE run_id = ? ORDER BY node, bin",
              runId));
      rows.addAll(
          query(
              c,
              "SELECT node, position_id, confidence, var_contribution, es_contribution,"
                  + " marginal_var FROM var_position_contribution"
                  + " WHERE run_id = ? ORDER BY node, position_id, confidence",
              runId));
    }
    return rows;
  }

  private static List<String> query(Connection c, String sql, String runId) throws Exception {
    List<String> rows = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= columns; i++) {
            row.append(rs.getString(i)).append('|');
          }
          rows.add(row.toString());
        }
      }
    }
    return rows;
  }
}
