package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gantry.testing.server.GantryTestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** cli/bin/gantry against the packaged jar, started from an unrelated directory. */
@ExtendWith(CliServers.Plain.class)
class GantryLauncherIT {
  private static final Path SCRIPT = Path.of("/usr/bin/script");

  private static final Path LAUNCHER = Path.of("bin/gantry").toAbsolutePath();
  private static final Path EXAMPLES =
      Path.of("../jsdl-schema/examples").toAbsolutePath().normalize();

  @TempDir Path elsewhere;

  private String[] run(int expectedExit, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    return runProcess(expectedExit, command).split("\n");
  }

  private String runProcess(int expectedExit, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(elsewhere.toFile()).redirectErrorStream(true);
    // the developer's own GANTRY_* settings and stored login stay out of the test
    builder.environment().keySet().removeIf(name -> name.startsWith("GANTRY_"));
    builder.environment().put(LoginFile.VARIABLE, GantryRun.NO_LOGIN_FILE.toString());
    builder.environment().put("GANTRY_AGENT", "off"); // the agent has CommandAgentIT of its own
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(expectedExit, process.exitValue(), output);
    return output;
  }

  /** A job that runs for a couple of seconds, so that wait sees it RUNNING before it ends. */
  private String submitShortSleep(GantryTestServer server) throws IOException {
    Path job = TestJobs.posix(elsewhere, "nap", "/bin/sh", "-c", "sleep 2");
    GantryRun.Result submit = new GantryRun(server.baseUrl()).run("submit", "-q", job.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    return submit.out().strip();
  }

  @Test
  void waitOnAPipeWritesPlainProgressLinesAndTheFinalStatus(GantryTestServer server)
      throws Exception {
    String id = submitShortSleep(server);
    String output =
        runProcess(0, List.of(LAUNCHER.toString(), "--server", server.baseUrl(), "wait", id));
    assertFalse(output.contains("\r") || output.contains("\033"), output);
    assertTrue(output.lines().anyMatch(l -> l.matches("\\d+:\\d\\d  SUCCEEDED")), output);
    assertTrue(output.lines().anyMatch(l -> l.startsWith(id + "  SUCCEEDED  ")), output);
  }

  @Test
  void waitOnATerminalRedrawsItsProgressLineInPlace(GantryTestServer server) throws Exception {
    assumeTrue(
        Files.isExecutable(SCRIPT), "util-linux script(1) gives the launcher a pseudo-terminal");
    String id = submitShortSleep(server);
    String command = LAUNCHER + " --server " + server.baseUrl() + " wait " + id;
    String output = runProcess(0, List.of(SCRIPT.toString(), "-qec", command, "/dev/null"));
    assertTrue(output.contains(ProgressDisplay.CLEAR_LINE), output);
    assertTrue(output.contains("\033[32mSUCCEEDED\033[0m"), output);

    String plain =
        runProcess(0, List.of(SCRIPT.toString(), "-qec", command + " --no-color", "/dev/null"));
    assertTrue(plain.contains(ProgressDisplay.CLEAR_LINE + "0:"), plain);
    assertFalse(plain.contains("\033[3"), plain);
    assertTrue(plain.contains(id + "  SUCCEEDED  "), plain);
  }

  @Test
  void validatesEveryExampleFromAnyDirectory() throws Exception {
    List<String> args = new ArrayList<>(List.of("validate"));
    try (var files = Files.list(EXAMPLES)) {
      files
          .filter(f -> f.toString().endsWith(".jsdl"))
          .sorted()
          .forEach(f -> args.add(f.toString()));
    }
    String[] lines = run(0, args.toArray(String[]::new));
    long oks = List.of(lines).stream().filter(l -> l.startsWith("OK " + EXAMPLES)).count();
    assertEquals(args.size() - 1, oks, String.join("\n", lines));
  }

  @Test
  void reportsAnInvalidJobWithLineAndColumn() throws Exception {
    Path broken = Files.writeString(elsewhere.resolve("broken.jsdl"), ValidateCommandTest.BROKEN);
    String[] lines = run(1, "validate", "broken.jsdl");
    assertEquals("broken.jsdl: INVALID", lines[0]);
    assertEquals(
        "  line 6:9 JobDefinition/JobDescription/Application/MpirunApplication/NumberOfProcesses:"
            + " must be at least 1, not 0",
        lines[1]);
    assertTrue(Files.exists(broken));
  }
}
