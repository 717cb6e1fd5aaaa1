package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * gantry get (a job's files, in chunks, confined to its directory), list --name/--since/--watch,
 * and the end of standard error that submit --wait shows for a failed job.
 */
@ExtendWith(CliServers.Plain.class)
class JobFilesAndFiltersTest {
  /** Lines of a file larger than two getJobFile chunks (1 MiB each). */
  private static final int BIG_LINES = 400_000;

  @TempDir Path dir;

  private String submitAndWait(GantryTestServer server, Path job, int expectedExit) {
    Result submit =
        new GantryRun(server.baseUrl()).run("submit", "--quiet", "--wait", job.toString());
    assertEquals(expectedExit, submit.exitCode(), submit.toString());
    return submit.out().strip();
  }

  @Test
  void filesListsTheJobDirectoryAndOutputSaysWhereAQuietProgramsResultsAre(GantryTestServer server)
      throws Exception {
    Path job =
        TestJobs.posix(
            dir,
            "quiet-results",
            "/bin/sh",
            "-c",
            "mkdir results && printf abc > results/var.csv && ln -s /etc/passwd results/passwd");
    String id = submitAndWait(server, job, 0);
    GantryRun gantry = new GantryRun(server.baseUrl());

    Result files = gantry.run("files", id);
    assertEquals(0, files.exitCode(), files.toString());
    assertTrue(files.out().startsWith("SIZE"), files.toString());
    assertTrue(
        files.out().lines().anyMatch(l -> l.matches("3 +file +results/var\\.csv")),
        files.toString());
    assertTrue(
        files.out().lines().anyMatch(l -> l.matches("- +link +results/passwd")), files.toString());
    Result json = gantry.run("--json", "files", id);
    assertTrue(
        json.out()
            .replaceAll("\\s", "")
            .contains("{\"path\":\"results/var.csv\",\"size\":3,\"type\":\"file\"}"),
        json.toString());
    Result quiet = gantry.run("--quiet", "files", id);
    assertTrue(quiet.out().lines().anyMatch("results/var.csv"::equals), quiet.toString());
    Result unknown = gantry.run("files", "a".repeat(32));
    assertEquals(4, unknown.exitCode(), unknown.toString());

    Result output = gantry.run("output", id);
    assertEquals(0, output.exitCode(), output.toString());
    assertEquals("", output.out(), output.toString());
    assertTrue(
        output.err().contains("job " + id + " wrote nothing to its standard output")
            && output.err().contains("'gantry files " + id + "'"),
        output.toString());
    Result outputJson = gantry.run("--json", "output", id);
    assertTrue(outputJson.out().contains("wrote nothing"), outputJson.toString());
  }

  @Test
  void getDownloadsAJobsFilesWholeAndRefusesPathsOutsideItsDirectory(GantryTestServer server)
      throws Exception {
    Path job =
        TestJobs.posix(
            dir,
            "writes-results",
            "/bin/sh",
            "-c",
            "mkdir results && echo 'VaR 99%: 1234.5' > results/summary.txt"
                + " && seq 1 "
                + BIG_LINES
                + " > results/big.txt"
                + " && ln -s /etc/passwd results/passwd");
    String id = submitAndWait(server, job, 0);
    GantryRun gantry = new GantryRun(server.baseUrl());

    Path summary = dir.resolve("summary.txt");
    Result small = gantry.run("get", id, "results/summary.txt", "-o", summary.toString());
    assertEquals(0, small.exitCode(), small.toString());
    assertEquals("VaR 99%: 1234.5\n", Files.readString(summary));

    Path big = dir.resolve("big.txt");
    Result large = gantry.run("get", id, "results/big.txt", "-o", big.toString());
    assertEquals(0, large.exitCode(), large.toString());
    String expected =
        IntStream.rangeClosed(1, BIG_LINES)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining("\n", "", "\n"));
    assertTrue(expected.length() > 2 * GetCommand.CHUNK, "the file spans several chunks");
    assertEquals(expected, Files.readString(big));

    Result again = gantry.run("get", id, "results/summary.txt", "-o", summary.toString());
    assertEquals(2, again.exitCode(), "an existing file is kept: " + again);

    for (String outside : List.of("../../../etc/passwd", "/etc/passwd", "results/../../x")) {
      Result refused = gantry.run("get", id, outside, "-o", dir.resolve("x").toString());
      assertEquals(2, refused.exitCode(), refused.toString());
      assertTrue(refused.err().contains("argument path"), refused.toString());
    }
    Result link = gantry.run("get", id, "results/passwd", "-o", dir.resolve("p").toString());
    assertEquals(2, link.exitCode(), link.toString());
    assertTrue(link.err().contains("link"), link.toString());
    Result missing = gantry.run("get", id, "results/none.txt", "-o", dir.resolve("n").toString());
    assertEquals(4, missing.exitCode(), missing.toString());
    assertFalse(Files.exists(dir.resolve("x")) || Files.exists(dir.resolve("p")));
    try (var left = Files.list(dir)) {
      assertTrue(left.noneMatch(f -> f.getFileName().toString().endsWith(".part")));
    }
  }

  @Test
  void listFiltersByNamePatternAndSubmissionTime(GantryTestServer server) throws Exception {
    String risk = submitAndWait(server, TestJobs.posix(dir, "lst-risk-rates", "/bin/true"), 0);
    String other = submitAndWait(server, TestJobs.posix(dir, "lst-other", "/bin/true"), 0);
    GantryRun gantry = new GantryRun(server.baseUrl());

    Result byName = gantry.run("list", "--quiet", "--name", "lst-risk-*");
    assertEquals(0, byName.exitCode(), byName.toString());
    assertEquals(List.of(risk), byName.out().lines().toList());

    Result recent = gantry.run("list", "--quiet", "--name", "lst-*", "--since", "1h");
    assertEquals(List.of(other, risk), recent.out().lines().toList());

    // a date is local midnight, as the user reads it
    String tomorrow = LocalDate.now(java.time.ZoneId.systemDefault()).plusDays(1).toString();
    Result none = gantry.run("list", "--name", "lst-*", "--since", tomorrow);
    assertEquals("no jobs\n", none.out(), none.toString());

    Result wrong = gantry.run("list", "--since", "last tuesday");
    assertEquals(2, wrong.exitCode(), wrong.toString());
    assertTrue(wrong.err().contains("neither a time ago"), wrong.toString());
  }

  @Test
  void listWatchWithoutATerminalPrintsTheListAgainAsPlainLines(GantryTestServer server)
      throws Exception {
    String id = submitAndWait(server, TestJobs.posix(dir, "watched-once", "/bin/true"), 0);
    Result watch =
        new GantryRun(server.baseUrl())
            .run("list", "--watch", "--interval", "1s", "--count", "2", "--name", "watched-once");
    assertEquals(0, watch.exitCode(), watch.toString());
    assertEquals(2, watch.out().lines().filter(l -> l.startsWith("every 1s: gantry list")).count());
    assertEquals(2, watch.out().lines().filter(l -> l.startsWith(id + "  watched-once")).count());
    assertFalse(watch.out().contains("\033"), "no escape sequences off a terminal");
  }

  @Test
  void submitWaitShowsTheEndOfStandardErrorWhenTheJobFails(GantryTestServer server)
      throws Exception {
    Path job =
        TestJobs.posix(
            dir,
            "fails-loudly",
            "/bin/sh",
            "-c",
            "i=1; while [ $i -le 30 ]; do echo \"problem $i\" >&2; i=$((i+1)); done; exit 3");
    Result submit = new GantryRun(server.baseUrl()).run("submit", "--wait", job.toString());
    assertEquals(1, submit.exitCode(), submit.toString());
    assertTrue(
        submit.err().contains("--- the last 20 lines of its standard error"), submit.toString());
    List<String> lines = submit.err().lines().toList();
    assertEquals("problem 30", lines.get(lines.size() - 1), submit.toString());
    assertTrue(lines.contains("problem 11"), submit.toString());
    assertFalse(lines.contains("problem 10"), submit.toString());

    Path quiet = TestJobs.posix(dir, "succeeds-quietly", "/bin/sh", "-c", "echo fine >&2");
    Result ok = new GantryRun(server.baseUrl()).run("submit", "--wait", quiet.toString());
    assertEquals(0, ok.exitCode(), ok.toString());
    assertFalse(ok.err().contains("standard error"), ok.toString());
  }
}
