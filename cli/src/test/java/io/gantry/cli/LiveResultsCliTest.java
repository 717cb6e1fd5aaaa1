package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry results --follow: a running job's progress file (docs/live-results.md) printed at each new
 * checkpoint until the job ends, then the results as without --follow.
 */
@ExtendWith(CliServers.Plain.class)
class LiveResultsCliTest {
  @TempDir Path dir;

  /**
   * Two checkpoints three seconds apart (the CLI polls every 0.7 s), each replacing the file; one
   * line, as a JSDL argument's line breaks do not survive.
   */
  private static final String PUBLISHER =
      "h=done,total,unit,figure,value,stderr;"
          + " a='1000,2000,scenarios,VaR 0.99 BANK,120.5,6.025';"
          + " printf '%s\\n%s\\n' \"$h\" \"$a\" > .p && mv .p progress.csv && sleep 3 &&"
          + " printf '%s\\n%s\\n%s\\n%s\\n' \"$h\" \"$a\" '2000,2000,scenarios,VaR 0.99 BANK,118,2.36'"
          + " '2000,2000,scenarios,\"ES 0.99 BANK/A,B\",150,' > .p && mv .p progress.csv";

  @Test
  void followPrintsEachCheckpointUntilTheJobEndsThenTheResults(GantryTestServer server)
      throws Exception {
    GantryRun gantry = new GantryRun(server.baseUrl());
    Result submit =
        gantry.run(
            "submit",
            "--quiet",
            TestJobs.posix(dir, "publisher", "/bin/sh", "-c", PUBLISHER).toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    String id = submit.out().strip();

    Result follow = gantry.run("results", "--follow", id);
    assertEquals(0, follow.exitCode(), follow.toString());
    String out = follow.out();
    int first = out.indexOf("progress: 1000 of 2000 scenarios (50%)");
    int second = out.indexOf("progress: 2000 of 2000 scenarios (100%)");
    assertTrue(first >= 0 && second > first, out);
    assertTrue(
        out.lines().anyMatch(l -> l.matches("VaR 0\\.99 BANK +120\\.500 +6\\.02500 +5\\.00%")),
        out);
    assertTrue(
        out.lines().anyMatch(l -> l.matches("VaR 0\\.99 BANK +118\\.000 +2\\.36000 +2\\.00%")),
        out);
    assertTrue(out.lines().anyMatch(l -> l.matches("ES 0\\.99 BANK/A,B +150\\.000 *")), out);
    assertEquals(1, out.split("progress: 2000 ", -1).length - 1, "each checkpoint once: " + out);
    assertTrue(out.contains("job " + id + "  SUCCEEDED"), "then the results: " + out);

    Result quiet =
        gantry.run(
            "submit", "--quiet", "--wait", TestJobs.posix(dir, "silent", "/bin/true").toString());
    String silent = quiet.out().strip();
    Result none = gantry.run("results", "--follow", silent);
    assertEquals(0, none.exitCode(), none.toString());
    assertTrue(
        none.out().contains("job " + silent + " published no progress (progress.csv)"),
        none.toString());
  }
}
