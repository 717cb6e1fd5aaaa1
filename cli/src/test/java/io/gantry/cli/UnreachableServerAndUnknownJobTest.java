package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What every server command says when the server is down, and when the job id is unknown. */
@ExtendWith(CliServers.Plain.class)
class UnreachableServerAndUnknownJobTest {
  static final String UNKNOWN = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

  private static String[] command(String line) {
    List<String> args = new ArrayList<>(List.of(line.split(" ")));
    args.replaceAll(a -> a.replace("HELLO", TestJobs.HELLO_MPI.toString()).replace("ID", UNKNOWN));
    return args.toArray(String[]::new);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "submit HELLO",
        "status ID",
        "list",
        "wait ID",
        "output ID",
        "results ID",
        "definition ID",
        "cancel ID",
        "kill ID",
        "server-info",
        "audit ID"
      })
  void aServerThatIsDownIsExitCode3WithAMessageNamingItsUrl(String line) throws Exception {
    String dead = CliServers.deadUrl();
    Result result = new GantryRun(dead).run(command(line));
    assertEquals(
        new Result(
            3,
            "",
            "gantry: cannot connect to the Gantry server at "
                + dead
                + "/services/JobManagement (Connection refused); is it running? Set --server or GANTRY_SERVER\n"),
        result);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "status ID",
        "wait ID",
        "output ID",
        "results ID",
        "definition ID",
        "cancel ID",
        "kill ID",
        "audit ID"
      })
  void anUnknownJobIsExitCode4(String line, GantryTestServer server) {
    Result result = new GantryRun(server.baseUrl()).run(command(line));
    assertEquals(4, result.exitCode(), result.toString());
    assertEquals("", result.out());
    assertTrue(result.err().contains("no job " + UNKNOWN + " for user local\n"), result.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:PORT",
        "http://127.0.0.1:PORT/",
        "http://127.0.0.1:PORT/services/JobManagement"
      })
  void theServerUrlMayBeGivenWithOrWithoutTheEndpointPath(String url, GantryTestServer server) {
    String port = server.baseUrl().substring(server.baseUrl().lastIndexOf(':') + 1);
    Result result = new GantryRun(url.replace("PORT", port)).run("server-info", "-q");
    assertEquals(new Result(0, "0.1.0\n", ""), result);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://127.0.0.1:PORT/elsewhere"})
  void aUrlWithoutTheJobServiceIsExitCode3(String url, GantryTestServer server) {
    String port = server.baseUrl().substring(server.baseUrl().lastIndexOf(':') + 1);
    Result result = new GantryRun(url.replace("PORT", port)).run("server-info");
    assertEquals(3, result.exitCode(), result.toString());
    assertTrue(result.err().startsWith("gantry: "), result.toString());
  }
}
