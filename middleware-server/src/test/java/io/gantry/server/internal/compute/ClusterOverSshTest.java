package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobFileChunk;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.JobStateName;
import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.cluster.ClusterBackendSettings;
import io.gantry.testing.cluster.NamespaceCluster;
import io.gantry.testing.server.GantryTestServer;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl, demo on) on a cluster reached over SSH:
 * the login host of a namespace cluster runs OpenSSH's sshd and slurmctld, a node runs slurmd, and
 * the server, outside the cluster, streams staging into {@code compute.root} over SFTP and submits
 * with sbatch over the same connection. The same text gives the same VaR rows as on the server's
 * own host, and nothing of the job is written under the server's local staging root. The hosts
 * share this machine's file system, so compute.root is a directory the test makes. The two runs go
 * side by side.
 */
public class ClusterOverSshTest {
  private static final Path REPOSITORY = SampleVarRun.REPOSITORY;
  private static final Path MCVAR = SampleVarRun.MCVAR;
  private static NamespaceCluster cluster;

  @TempDir static Path work;

  @BeforeAll
  static void startCluster() {
    assertTrue(
        Files.isExecutable(MCVAR), "build the node programs first (scripts/build): " + MCVAR);
    cluster = NamespaceCluster.builder().nodes(1).cpusPerNode(2).slurm().sshd().start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theSampleVarJobStreamsIntoTheClusterAndGivesTheSameResultsAsOnTheServersHost()
      throws Exception {
    Path root = work.resolve("cluster-root");
    Map<String, String> remote = new HashMap<>(ClusterBackendSettings.slurmOverSsh(cluster, root));
    List<List<String>> results =
        SampleVarRun.sideBySide(
            List.of(() -> run("local", Map.of(), null), () -> run("cluster", remote, root)));
    List<String> local = results.get(0);
    List<String> onCluster = results.get(1);

    assertFalse(local.isEmpty());
    assertEquals(local, onCluster);
  }

  /**
   * Runs the sample on a fresh server; its results, run id left out. With {@code clusterRoot} the
   * job's directory must be there, complete, and absent from the server's own staging root.
   */
  private List<String> run(String name, Map<String, String> backend, Path clusterRoot)
      throws Exception {
    Path dataDir = work.resolve(name);
    Map<String, String> settings = new HashMap<>(SampleVarRun.settings());
    settings.putAll(backend);
    try (GantryTestServer server =
        GantryTestServer.builder(work.resolve(name + "-server"))
            .dataDir(dataDir)
            .settings(settings)
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      String id = SampleVarRun.submit(server, client);
      JobStatusInfo end = TestJobs.awaitFinal(client, id, Duration.ofMinutes(3));
      assertEquals(
          JobStateName.SUCCEEDED,
          end.state,
          () -> name + ": " + end.failureReason + "; stderr: " + stderr(client, id));
      if (clusterRoot != null) {
        checkJobDirectoryOnCluster(server, client, clusterRoot.resolve(id), id);
      }
      server.close(); // the demo database is a file of the server's, opened by one process at once
      return SampleVarRun.results(dataDir, id);
    }
  }

  private static String stderr(JobManagement client, String id) {
    try {
      OutputChunk err = client.getJobOutput(id, OutputStreamName.STDERR, 0, 1 << 16);
      return new String(err.data, java.nio.charset.StandardCharsets.UTF_8) + " " + err.note;
    } catch (Exception e) {
      return e.toString();
    }
  }

  private static void checkJobDirectoryOnCluster(
      GantryTestServer server, JobManagement client, Path jobDir, String id) throws Exception {
    assertTrue(Files.isDirectory(jobDir), "the job directory is on the cluster: " + jobDir);
    for (String staged : List.of("positions.csv.gz", "params.csv.gz", "factor-ids.csv")) {
      assertTrue(Files.isRegularFile(jobDir.resolve(staged)), staged + " streamed to the cluster");
    }
    try (Stream<Path> s = Files.walk(jobDir)) {
      assertEquals(
          List.of(),
          s.filter(p -> p.getFileName().toString().endsWith(".gantry-part")).toList(),
          "no temporary name left");
    }
    assertFalse(
        Files.exists(server.jobDirectory(id)),
        "nothing of the job is written under the server's own staging root");
    // the job's standard output is read back over SFTP
    OutputChunk out = client.getJobOutput(id, OutputStreamName.STDOUT, 0, 1 << 20);
    assertNotNull(out.size, "stdout read from the cluster: " + out.note);
    assertEquals(Files.size(findStdout(jobDir)), out.size.longValue());
    // getJobFile (gantry get) reads any file of it over SFTP, by the rules of a local job's
    JobFileChunk ids = client.getJobFile(id, "factor-ids.csv", 0, 1 << 20);
    assertArrayEquals(Files.readAllBytes(jobDir.resolve("factor-ids.csv")), ids.data);
    assertEquals(Files.size(jobDir.resolve("factor-ids.csv")), ids.size);
    SOAPFaultException outside =
        assertThrows(
            SOAPFaultException.class,
            () -> client.getJobFile(id, "../" + id + "/factor-ids.csv", 0, 1024));
    assertTrue(outside.getMessage().contains("path"), outside.getMessage());
    assertThrows(JobNotFoundFault.class, () -> client.getJobFile(id, "no-such-file", 0, 1024));
    // its result file as the next job's input (gantry-job:): an SFTP read streamed into an SFTP
    // write on the cluster, nothing on the server's host
    String consumer =
        client.submitJob(
            TestJobs.job("reads-var-summary")
                .stageIn(
                    "in/var_summary.csv.gz", "gantry-job:" + id + "/results/var_summary.csv.gz")
                .shell("test -s in/var_summary.csv.gz", 60)
                .document());
    JobStatusInfo consumed = TestJobs.awaitFinal(client, consumer, Duration.ofMinutes(2));
    assertEquals(JobStateName.SUCCEEDED, consumed.state, consumed.failureReason);
    assertArrayEquals(
        Files.readAllBytes(jobDir.resolve("results/var_summary.csv.gz")),
        Files.readAllBytes(jobDir.resolveSibling(consumer).resolve("in/var_summary.csv.gz")));
    assertFalse(Files.exists(server.jobDirectory(consumer)));
    // a task farm is a feature of job directories on the server's host: refused at submission
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    JobDocument farm =
        new JobDocument(
            f.newDocumentBuilder()
                .parse(
                    REPOSITORY.resolve("jsdl-schema/examples/price-instruments-farm.jsdl").toFile())
                .getDocumentElement());
    InvalidJobFault refused = assertThrows(InvalidJobFault.class, () -> client.submitJob(farm));
    String problems =
        refused.getFaultInfo().problems.stream().map(p -> p.message).toList().toString();
    assertTrue(problems.contains("task farms") && problems.contains("compute.ssh-host"), problems);
    // so is a JSDL file system: a directory of the server's host, which the cluster cannot see
    String withFileSystem =
        Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
            .replace(
                "</jsdl:Application>",
                "</jsdl:Application><jsdl:Resources><jsdl:FileSystem name=\"REF\">"
                    + "<jsdl:FileSystemType>normal</jsdl:FileSystemType></jsdl:FileSystem>"
                    + "</jsdl:Resources>");
    InvalidJobFault noFileSystem =
        assertThrows(
            InvalidJobFault.class,
            () ->
                client.submitJob(
                    new JobDocument(
                        f.newDocumentBuilder()
                            .parse(new InputSource(new StringReader(withFileSystem)))
                            .getDocumentElement())));
    String fsProblems =
        noFileSystem.getFaultInfo().problems.stream().map(p -> p.message).toList().toString();
    assertTrue(
        fsProblems.contains("JSDL file systems [REF]") && fsProblems.contains("compute.ssh-host"),
        fsProblems);
  }

  private static Path findStdout(Path jobDir) throws Exception {
    try (Stream<Path> s = Files.walk(jobDir)) {
      return s.filter(p -> p.getFileName().toString().equals("mcvar.out"))
          .findFirst()
          .orElseThrow();
    }
  }
}
