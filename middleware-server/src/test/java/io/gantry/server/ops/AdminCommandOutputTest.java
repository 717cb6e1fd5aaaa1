package io.gantry.server.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An admin command, run as its own JVM as an operator runs it, prints what was asked for and no
 * INFO line of the database libraries (connection pool, schema migrations), even on a new job store
 * whose schema it creates.
 */
class AdminCommandOutputTest {
  @TempDir Path dir;

  @Test
  void userListOnANewStorePrintsNoLibraryInfoLines() throws Exception {
    Process command =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    "io.gantry.server.GantryServerCommand",
                    "user",
                    "list",
                    "--data-dir",
                    dir.toString()))
            .redirectErrorStream(true)
            .start();
    command.getOutputStream().close();
    String output = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(command.waitFor(120, TimeUnit.SECONDS), output);
    assertEquals(0, command.exitValue(), output);
    for (String line : output.lines().toList()) {
      assertTrue(
          !line.contains(" INFO ") && !line.contains("com.zaxxer") && !line.contains("flywaydb"),
          "a library's log line in an admin command's output: " + line + "\n" + output);
    }
  }
}
