package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cli/bin/gantry against the packaged jar, started from an unrelated directory. */
class GantryLauncherIT {
  private static final Path LAUNCHER = Path.of("bin/gantry").toAbsolutePath();
  private static final Path EXAMPLES = Path.of("../jsdl-schema/examples").toAbsolutePath().normalize();

  @TempDir Path elsewhere;

  private String[] run(int expectedExit, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).directory(elsewhere.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(expectedExit, process.exitValue(), output);
    return output.split("\n");
  }

  @Test
  void validatesEveryExampleFromAnyDirectory() throws Exception {
    List<String> args = new ArrayList<>(List.of("validate"));
    try (var files = Files.list(EXAMPLES)) {
      files.filter(f -> f.toString().endsWith(".jsdl")).sorted().forEach(f -> args.add(f.toString()));
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
    assertEquals("  line 6:9 JobDefinition/JobDescription/Application/MpirunApplication/NumberOfProcesses:"
        + " must be at least 1, not 0", lines[1]);
    assertTrue(Files.exists(broken));
  }
}
