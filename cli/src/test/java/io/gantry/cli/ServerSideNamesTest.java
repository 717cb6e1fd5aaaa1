package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data source or application the server does not offer is refused at the element that names it,
 * with its line:column in the user's file (not the server's copy of the element) and the nearest
 * name the user may use.
 */
@ExtendWith(CliServers.Plain.class)
class ServerSideNamesTest {
  @TempDir Path dir;

  @Test
  void aMisspeltDataSourceIsPlacedAndAnswered(GantryTestServer server) throws Exception {
    Path job =
        Files.writeString(
            dir.resolve("misspelt.jsdl"),
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- the prologue is not sent to the server: lines are counted in this file -->
            <jsdl:JobDefinition xmlns:jsdl="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                                xmlns:gx="urn:gantry:jsdl:ext:1">
              <jsdl:JobDescription>
                <gx:PreDataStaging>
                  <gx:SQLQueryDataStaging>
                    <gx:DataSourceRef>demo-markt</gx:DataSourceRef>
                    <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>
                    <gx:SQLStatement>SELECT 1</gx:SQLStatement>
                    <gx:SQLOutputFileName>one.csv</gx:SQLOutputFileName>
                  </gx:SQLQueryDataStaging>
                </gx:PreDataStaging>
              </jsdl:JobDescription>
            </jsdl:JobDefinition>
            """);
    Result submit = new GantryRun(server.baseUrl()).run("submit", job.toString());
    assertEquals(1, submit.exitCode(), submit.toString());
    assertTrue(
        submit
            .err()
            .contains(
                "line 8:9 JobDefinition/JobDescription/PreDataStaging/SQLQueryDataStaging/"
                    + "DataSourceRef: data source 'demo-markt' is not defined on this server"),
        submit.toString());
    assertTrue(submit.err().contains("did you mean 'demo-market'?"), submit.toString());
  }

  @Test
  void aMisspeltApplicationIsPlacedAndAnswered(GantryTestServer server) throws Exception {
    Path job =
        Files.writeString(
            dir.resolve("gret.jsdl"),
            """
            <JobDefinition xmlns="http://schemas.ggf.org/jsdl/2005/11/jsdl"><JobDescription>
              <Application>
                <ApplicationName>gret</ApplicationName>
              </Application>
            </JobDescription></JobDefinition>
            """);
    Result submit = new GantryRun(server.baseUrl()).run("submit", job.toString());
    assertEquals(1, submit.exitCode(), submit.toString());
    assertTrue(
        submit
            .err()
            .contains(
                "line 3:5 JobDefinition/JobDescription/Application/ApplicationName: ApplicationName"
                    + " gret is not an application this server offers"),
        submit.toString());
    assertTrue(submit.err().contains("did you mean 'greet'?"), submit.toString());
  }

  @Test
  void anApplicationNamedAsUnicoreNamesItRunsTheServersApplication(GantryTestServer server)
      throws Exception {
    // the ApplicationName beside a POSIXApplication without Executable names the program
    Path job =
        Files.writeString(
            dir.resolve("unicore.jsdl"),
            """
            <JobDefinition xmlns="http://schemas.ggf.org/jsdl/2005/11/jsdl"
                xmlns:posix="http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"><JobDescription>
              <Application>
                <ApplicationName>greet</ApplicationName>
                <posix:POSIXApplication/>
              </Application>
            </JobDescription></JobDefinition>
            """);
    Result submit = new GantryRun(server.baseUrl()).run("submit", "--wait", job.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    assertTrue(submit.out().contains("  SUCCEEDED"), submit.toString());
  }
}
