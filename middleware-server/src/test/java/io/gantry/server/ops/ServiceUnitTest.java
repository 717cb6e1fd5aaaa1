package io.gantry.server.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped unit, systemd/gantry-server.service, passes {@code systemd-analyze verify} (its
 * ExecStart pointed at this checkout's bin/gantry-server, since /opt/gantry is not installed here)
 * and says what docs/operations.md promises: a clean stop that leaves running jobs to their
 * supervisors, restart on failure, start at boot, a root-only data directory. No systemd runs as
 * PID 1 in the tests, so the unit is not started here.
 */
class ServiceUnitTest {
  private static final Path UNIT = Path.of("systemd", "gantry-server.service");
  private static final String INSTALLED = "/opt/gantry/middleware-server/bin/gantry-server";

  @TempDir Path dir;

  @Test
  void systemdAnalyzeVerifiesTheUnit() throws Exception {
    String unit = Files.readString(UNIT);
    assertTrue(unit.contains("ExecStart=" + INSTALLED + " --config "), unit);
    Path copy = dir.resolve("gantry-server.service");
    Files.writeString(
        copy, unit.replace(INSTALLED, Path.of("bin", "gantry-server").toAbsolutePath().toString()));
    Process verify =
        new ProcessBuilder(List.of("systemd-analyze", "verify", copy.toString()))
            .redirectErrorStream(true)
            .start();
    String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(verify.waitFor(60, TimeUnit.SECONDS), "systemd-analyze verify did not finish");
    assertEquals(0, verify.exitValue(), output);
    assertEquals("", output.strip());
  }

  @Test
  void theUnitStopsCleanlyRestartsOnFailureAndStartsAtBoot() throws Exception {
    List<String> lines = Files.readAllLines(UNIT);
    for (String expected :
        List.of(
            "KillMode=process", // jobs' gantry-stepd supervisors outlive a stop
            "KillSignal=SIGTERM",
            "Restart=on-failure",
            "WantedBy=multi-user.target",
            "StateDirectory=gantry",
            "StateDirectoryMode=0700",
            "User=root")) {
      assertTrue(lines.contains(expected), "the unit lacks " + expected);
    }
  }
}
