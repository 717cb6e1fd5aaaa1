package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.CacheRule;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.RemoteTransfer;
import io.gantry.staging.Secret;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.SshCredentials;
import io.gantry.staging.StageInCache;
import io.gantry.staging.StageInPlan;
import io.gantry.staging.StagingGateway;
import io.gantry.testing.H2Databases;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** gantry-server cache list|clear on a cache a real extract filled, where the server keeps it. */
class CacheCommandTest {
  @TempDir Path dir;

  private String gantryServer(String... args) {
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(new GantryServerCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(out, true));
    assertEquals(0, command.execute(args), out.toString());
    return out.toString();
  }

  @Test
  void listShowsTheCachedExtractAndClearEmptiesTheCache() throws Exception {
    String url = H2Databases.newInMemoryUrl();
    try (Connection c = DriverManager.getConnection(url, H2Databases.user(), "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE position (position_id varchar(8), quantity int)");
      s.execute("INSERT INTO position VALUES ('P1', 10), ('P2', 20)");
      DataSourceSpec spec = new DataSourceSpec("market", url, H2Databases.user(), Secret.of(""));
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
      // the server's layout: data directory, its jobs root, the cache beneath it
      Path cacheDir = dir.resolve("jobs").resolve(".stage-in-cache");
      Path job = Files.createDirectories(dir.resolve("jobs").resolve("job1"));
      try (StagingGateway gateway =
          new StagingGateway(credentials, GatewayOptions.defaults())
              .useCache(StageInCache.open(cacheDir, 1 << 20))) {
        gateway.stageIn(
            new StageInPlan(
                List.of(),
                List.of(
                    new SqlExtract(
                        DataSourceRef.named("market"),
                        1,
                        "SELECT * FROM position ORDER BY position_id",
                        "positions.csv",
                        null,
                        CreationFlag.OVERWRITE,
                        false,
                        new CacheRule(Duration.ofHours(1), null)))),
            job,
            null);
      }
    }
    String list = gantryServer("cache", "list", "--data-dir", dir.toString());
    assertTrue(
        list.contains("\t2\t")
            && list.contains("in-use")
            && list.contains("'market'")
            && list.contains("SELECT * FROM position ORDER BY position_id"),
        list);
    assertTrue(
        gantryServer("cache", "clear", "--data-dir", dir.toString())
            .startsWith("removed 1 cached extracts"));
    assertTrue(
        gantryServer("cache", "list", "--data-dir", dir.toString()).startsWith("total 0 bytes"));
    assertEquals(
        "POSITION_ID,QUANTITY\nP1,10\nP2,20\n",
        Files.readString(dir.resolve("jobs/job1/positions.csv")),
        "the job keeps its file");
  }
}
