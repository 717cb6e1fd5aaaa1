package io.gantry.staging.bench;

import io.gantry.staging.ClusterConnection;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.Manifest;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.Secret;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StagingGateway;
import io.gantry.testing.EmbeddedPostgresServer;
import io.gantry.testing.cluster.NamespaceCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Streaming stage-in to a cluster (run by {@code staging-gateway/bench/run}, as root): the same
 * extract of a real PostgreSQL table into blocked gzip, (a) streamed straight into a job directory
 * on the cluster over SFTP, against (b) staged into a local job directory and then copied with
 * OpenSSH's {@code scp} to the same directory of the same host. The cluster is the login host of a
 * namespace cluster (OpenSSH sshd), reached from this machine through the fixture's TCP relay, for
 * both sides alike. Each side runs twice after a warm-up; the faster run counts. Prints {@code
 * name: value} lines; the goal is (a) at most 0.7 of (b).
 */
public final class ClusterStreamingBenchmark {
  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    Path work = Files.createTempDirectory("gantry-cluster-bench");
    try (NamespaceCluster cluster = NamespaceCluster.builder().nodes(1).sshd().start();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
      String db = server.createDatabase();
      StagingBenchmark.load(server, db, rows);
      DataSourceSpec spec =
          new DataSourceSpec("bench", server.jdbcUrl(db), server.user(), Secret.of(""));
      CredentialResolver credentials =
          new CredentialResolver() {
            @Override
            public DataSourceSpec dataSource(DataSourceRef ref) {
              return spec;
            }

            @Override
            public SshCredentials ssh(RemoteTransfer transfer) {
              throw new IllegalArgumentException("no transfers");
            }
          };
      String host = relayHost(cluster);
      int port = cluster.loginSshEndpoint().getPort();
      GatewayOptions options =
          GatewayOptions.defaults().withKnownHosts(cluster.knownHosts(), false);
      byte[] key = Files.readAllBytes(cluster.sshPrivateKey());
      Path remoteRoot = Files.createDirectories(work.resolve("cluster-root"));
      Path localRoot = Files.createDirectories(work.resolve("local"));
      StageInPlan plan =
          new StageInPlan(
              List.of(),
              List.of(
                  new SqlExtract(
                      DataSourceRef.named("bench"),
                      1,
                      StagingBenchmark.QUERY,
                      "trade.csv.gz",
                      null,
                      CreationFlag.OVERWRITE,
                      true)));
      try (StagingGateway gateway = new StagingGateway(credentials, options);
          ClusterConnection connection =
              new ClusterConnection(
                  cluster.sshUser(),
                  host,
                  port,
                  () -> SshCredentials.privateKey(key, null),
                  options)) {
        double streamed = Double.MAX_VALUE;
        double localThenScp = Double.MAX_VALUE;
        double localOnly = Double.MAX_VALUE;
        double sftpOnly = Double.MAX_VALUE;
        double scpOnly = Double.MAX_VALUE;
        Manifest last = null;
        for (int i = 0; i < 3; i++) { // the first round warms up JIT, pools and caches
          String remoteDir = remoteRoot.resolve("streamed-" + i).toString();
          connection.recreateDirectory(remoteDir);
          long t0 = System.nanoTime();
          last = gateway.stageIn(plan, connection, remoteDir, null);
          double a = (System.nanoTime() - t0) / 1e9;

          Path localDir = Files.createDirectories(localRoot.resolve("job-" + i));
          Path copyDir = Files.createDirectories(remoteRoot.resolve("copied-" + i));
          long t1 = System.nanoTime();
          gateway.stageIn(plan, localDir, null);
          double extracted = (System.nanoTime() - t1) / 1e9;
          scp(cluster, host, port, localDir.resolve("trade.csv.gz"), copyDir + "/trade.csv.gz");
          double b = (System.nanoTime() - t1) / 1e9;
          long t2 = System.nanoTime();
          sftpUpload(connection, localDir.resolve("trade.csv.gz"), copyDir + "/again.csv.gz");
          double sftp = (System.nanoTime() - t2) / 1e9;
          if (i > 0) {
            sftpOnly = Math.min(sftpOnly, sftp);
            scpOnly = Math.min(scpOnly, b - extracted);
            streamed = Math.min(streamed, a);
            localThenScp = Math.min(localThenScp, b);
            localOnly = Math.min(localOnly, extracted);
          }
          check(Path.of(remoteDir, "trade.csv.gz"), copyDir.resolve("trade.csv.gz"));
        }
        long bytes = last.records().get(0).bytes();
        System.out.println("cluster_rows: " + last.records().get(0).rows());
        System.out.printf("cluster_compressed_mb: %.1f%n", bytes / 1e6);
        System.out.printf("cluster_streamed_to_remote_seconds: %.3f%n", streamed);
        System.out.printf("cluster_local_extract_seconds: %.3f%n", localOnly);
        System.out.printf("cluster_local_extract_then_scp_seconds: %.3f%n", localThenScp);
        System.out.printf("cluster_scp_copy_only_seconds: %.3f%n", scpOnly);
        System.out.printf("cluster_jsch_sftp_copy_only_seconds: %.3f%n", sftpOnly);
        System.out.printf(
            "cluster_ratio_streamed_over_local_then_scp: %.2f%n", streamed / localThenScp);
        System.out.println("cluster_goal_ratio_at_most: 0.70");
      }
    } finally {
      try (var files = Files.walk(work)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * The same file copied by JSch's SFTP on the gateway's connection: what the network leg of the
   * streamed side costs on its own.
   */
  private static void sftpUpload(ClusterConnection connection, Path file, String target)
      throws Exception {
    com.jcraft.jsch.ChannelSftp sftp =
        (com.jcraft.jsch.ChannelSftp) connection.session().openChannel("sftp");
    sftp.connect(10_000);
    try (java.io.InputStream in = Files.newInputStream(file)) {
      sftp.put(in, target);
    } finally {
      sftp.disconnect();
    }
  }

  /** OpenSSH's scp, as an argument array, with the cluster's key and strict host key checking. */
  private static void scp(NamespaceCluster cluster, String host, int port, Path file, String target)
      throws Exception {
    Process p =
        new ProcessBuilder(
                "scp",
                "-q",
                "-B",
                "-P",
                Integer.toString(port),
                "-i",
                cluster.sshPrivateKey().toString(),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "UserKnownHostsFile=" + cluster.knownHosts(),
                "-o",
                "StrictHostKeyChecking=yes",
                "--",
                file.toString(),
                cluster.sshUser() + "@" + host + ":" + target)
            .inheritIO()
            .start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("scp failed with status " + p.exitValue());
    }
  }

  /**
   * Both sides produced a file of the same rows (the compressed bytes may differ in block layout).
   */
  private static void check(Path streamed, Path copied) throws Exception {
    if (StagingBenchmark.uncompressedSize(streamed) != StagingBenchmark.uncompressedSize(copied)) {
      throw new IllegalStateException(streamed + " and " + copied + " differ");
    }
  }

  private static String relayHost(NamespaceCluster cluster) throws Exception {
    String port = "]:" + cluster.loginSshEndpoint().getPort() + " ";
    String line =
        Files.readAllLines(cluster.knownHosts()).stream()
            .filter(l -> l.contains(port))
            .findFirst()
            .orElseThrow();
    return line.substring(1, line.indexOf(']'));
  }
}
