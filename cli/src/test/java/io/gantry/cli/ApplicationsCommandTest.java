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
 * {@code gantry applications} lists the server's named applications; validate leaves them to the
 * server.
 */
@ExtendWith(CliServers.Plain.class)
class ApplicationsCommandTest {
  @TempDir Path dir;

  @Test
  void applicationsListsWhatTheServerOffersInATable(GantryTestServer server) {
    Result result = new GantryRun(server.baseUrl()).run("applications");
    assertEquals(0, result.exitCode(), result.toString());
    assertTrue(result.out().startsWith("NAME"), result.out());
    assertTrue(
        result.out().lines().anyMatch(l -> l.matches("greet\\s+-\\s+posix\\s+1\\s+says hello")),
        result.out());
  }

  @Test
  void applicationsQuietPrintsNameAndVersionOnly(GantryTestServer server) {
    Result result = new GantryRun(server.baseUrl()).run("applications", "--quiet");
    assertEquals(0, result.exitCode(), result.toString());
    assertTrue(result.out().lines().anyMatch("greet"::equals), result.out());
  }

  @Test
  void validateOfflineSaysANamedApplicationIsResolvedByTheServer() throws Exception {
    Path job =
        Files.writeString(
            dir.resolve("named.jsdl"),
            """
        <JobDefinition xmlns="http://schemas.ggf.org/jsdl/2005/11/jsdl"><JobDescription>
          <Application><ApplicationName>mcvar</ApplicationName></Application>
        </JobDescription></JobDefinition>
        """);
    ValidateCommandTest.Run run = ValidateCommandTest.run("validate", job.toString());
    assertEquals(
        new ValidateCommandTest.Run(
            0,
            "OK "
                + job
                + "\n  note: ApplicationName mcvar is resolved by the"
                + " server when the job is validated or submitted; gantry applications lists what it offers you\n",
            ""),
        run);
  }
}
