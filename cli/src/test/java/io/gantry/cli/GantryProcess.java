package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * cli/bin/gantry as a process of its own, as a user's shell or script runs it: the packaged jar,
 * the real environment, no terminal. The test's process's GANTRY_* variables are not passed on, and
 * unless a test names one, the login file is one that is never there. Without the command agent
 * unless a test turns it on (GANTRY_AGENT).
 */
final class GantryProcess {
  static final Path LAUNCHER = Path.of("bin/gantry").toAbsolutePath();

  /** The exit code, and standard output and error as they were interleaved. */
  record Output(int exitCode, String text) {}

  private final Path workingDirectory;
  private final Map<String, String> environment = new HashMap<>();

  GantryProcess(Path workingDirectory) {
    this.workingDirectory = workingDirectory;
    environment.put(LoginFile.VARIABLE, GantryRun.NO_LOGIN_FILE.toString());
    // a JVM per command, as the tests expect; CommandAgentIT turns the agent on with a runtime
    // directory of its own and stops the agents it started
    environment.put("GANTRY_AGENT", "off");
  }

  GantryProcess with(String variable, String value) {
    environment.put(variable, value);
    return this;
  }

  Output run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder
        .environment()
        .keySet()
        .removeIf(name -> name.startsWith("GANTRY_") || name.startsWith("XDG_"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(
        process.waitFor(60, TimeUnit.SECONDS), "gantry " + String.join(" ", args) + " did not end");
    return new Output(process.exitValue(), text);
  }
}
