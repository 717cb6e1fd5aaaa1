package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.cli.GantryRun.Result;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** submit, wait, status, list, output, results and definition against a real server. */
@ExtendWith(CliServers.Plain.class)
class SubmitAndInspectTest {
  static final String JOB_ID = "[a-z0-9]{32}";

  static GantryRun gantry;
  @TempDir Path dir;

  @BeforeAll
  static void connect(GantryTestServer server) {
    gantry = new GantryRun(server.baseUrl());
  }

  static String submittedId(Result submit) {
    String first = submit.out().lines().findFirst().orElseThrow();
    assertTrue(first.matches("submitted job " + JOB_ID), submit.toString());
    return first.substring("submitted job ".length());
  }

  @Test
  void submitWaitRunsHelloMpiToSuccessAndEveryInspectionCommandDescribesIt() {
    Result submit = gantry.run("submit", "--wait", TestJobs.HELLO_MPI.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    String id = submittedId(submit);
    List<String> out = submit.out().lines().toList();
    assertEquals(2, out.size(), submit.toString());
    assertTrue(
        out.get(1)
            .matches(id + "  SUCCEEDED +submitted \\S+Z  started \\S+Z  finished \\S+Z  exit 0"),
        submit.toString());
    // not a terminal here: plain progress lines, the last one the final state
    assertFalse(submit.err().contains("\r"), submit.toString());
    assertTrue(
        submit
            .err()
            .strip()
            .lines()
            .reduce((a, b) -> b)
            .orElseThrow()
            .matches("\\d+:\\d\\d  SUCCEEDED"),
        submit.toString());

    Result status = gantry.run("status", id);
    assertEquals(new Result(0, out.get(1) + "\n", ""), status);

    Result output = gantry.run("output", id);
    assertEquals(
        new Result(0, "Hello, world, from an MPI rank\nHello, world, from an MPI rank\n", ""),
        output);

    Result results = gantry.run("results", id);
    assertEquals(
        new Result(0, "job " + id + "  SUCCEEDED\nno data staged in or out\n", ""), results);

    Result definition = gantry.run("definition", id);
    assertEquals(0, definition.exitCode(), definition.toString());
    assertTrue(
        definition.out().contains("<gx:Executable>/bin/echo</gx:Executable>"),
        definition.toString());
    assertFalse(definition.out().contains("urn:gantry:jobmanagement"), definition.toString());

    Result list = gantry.run("list");
    assertEquals(0, list.exitCode(), list.toString());
    assertTrue(list.out().startsWith("JOB ID "), list.toString());
    assertTrue(
        list.out().lines().anyMatch(l -> l.matches(id + "  hello-mpi +local +SUCCEEDED .* 0 +-")),
        list.toString());
  }

  @Test
  void resultsListEveryStagedFileWithRowsBytesAndChecksum() throws Exception {
    Result submit = gantry.run("submit", "--wait", TestJobs.varJobStagingOnly(dir).toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    String id = submittedId(submit);

    Result results = gantry.run("results", id);
    assertEquals(0, results.exitCode(), results.toString());
    List<String> lines = results.out().lines().toList();
    assertEquals("job " + id + "  SUCCEEDED", lines.get(0));
    assertTrue(
        lines.get(1).matches("DIRECTION +STEP +SOURCE +TARGET +ROWS +BYTES +SECONDS +CHECKSUM"),
        results.toString());
    assertEquals(7, lines.size(), results.toString());
    for (String row : lines.subList(2, 7)) {
      assertTrue(
          row.matches(
              "in +sql-extract\\[\\d] +'demo-market' .*\\.csv(\\.gz)? +\\d+ +\\d+ +[\\d.]+ +sha256:[0-9a-f]{64}"),
          results.toString());
    }
    assertTrue(results.out().contains(" positions.csv.gz "), results.toString());

    Result audit = gantry.run("audit", id);
    assertEquals(0, audit.exitCode(), audit.toString());
    List<String> trail = audit.out().lines().toList();
    assertEquals("job " + id + "  owner local", trail.get(0));
    assertTrue(trail.get(1).matches("TIME +EVENT +DETAIL"), audit.toString());
    assertTrue(trail.get(2).matches("\\S+Z +QUEUED +submitted by local"), audit.toString());
    assertEquals(
        5,
        trail.stream()
            .filter(
                l ->
                    l.matches(
                        "\\S+Z +data +stage-in: sql-extract, \\d+ rows, .*"
                            + "sha256:[0-9a-f]{64}"))
            .count(),
        audit.toString());
    assertTrue(
        trail.get(trail.size() - 1).matches("\\S+Z +STAGING_OUT -> SUCCEEDED +stage-out finished"),
        audit.toString());
  }

  @Test
  void aStageOutThatFailedInItsSecondGroupShowsTheStepThatCommittedInResultsAuditAndStatus()
      throws Exception {
    Result submit =
        gantry.run("submit", "--wait", TestJobs.stageOutFailingInGroupTwo(dir).toString());
    assertEquals(1, submit.exitCode(), submit.toString());
    String id = submittedId(submit);

    Result status = gantry.run("status", id);
    assertTrue(status.out().contains("FAILED"), status.toString());
    assertTrue(
        status.out().contains("VAR_NO_SUCH_TABLE") || status.out().contains("var_no_such_table"),
        status.toString());
    assertTrue(
        status
            .out()
            .contains(
                "1 stage-out step(s) had committed before the failure and stay committed:"
                    + " sql-load results/pnl_distribution.csv to 'demo-market'"),
        status.toString());

    Result results = gantry.run("results", id);
    assertEquals(0, results.exitCode(), results.toString());
    List<String> lines = results.out().lines().toList();
    assertEquals("job " + id + "  FAILED", lines.get(0), results.toString());
    assertEquals(3, lines.size(), "header and the one committed step: " + results);
    assertTrue(
        lines
            .get(2)
            .matches(
                "out +sql-load\\[1] +results/pnl_distribution\\.csv +'demo-market'.* 1 +\\d+ .*"),
        results.toString());

    Result audit = gantry.run("audit", id);
    List<String> trail = audit.out().lines().toList();
    assertTrue(
        trail
            .get(trail.size() - 2)
            .matches("\\S+Z +STAGING_OUT -> FAILED +stage-out failed: .*had committed.*"),
        audit.toString());
    assertTrue(
        trail.get(trail.size() - 1).matches("\\S+Z +data +stage-out: sql-load, 1 rows, .*"),
        audit.toString());
  }

  @Test
  void quietSubmitPrintsOnlyTheIdAndWaitGivesTheOutcomeInItsExitCode() {
    Result submit = gantry.run("submit", "--quiet", TestJobs.HELLO_MPI.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    assertTrue(submit.out().matches(JOB_ID + "\n"), submit.toString());
    String id = submit.out().strip();
    assertEquals(new Result(0, "", ""), gantry.run("wait", "--quiet", id));
    assertEquals(new Result(0, id + " SUCCEEDED\n", ""), gantry.run("status", "-q", id));
  }

  @Test
  void submitFollowStreamsTheJobsOutputAloneOnStandardOutput() {
    Result submit = gantry.run("submit", "--follow", TestJobs.HELLO_MPI.toString());
    assertEquals(0, submit.exitCode(), submit.toString());
    assertEquals("Hello, world, from an MPI rank\nHello, world, from an MPI rank\n", submit.out());
    assertTrue(submit.err().startsWith("submitted job "), submit.toString());
    assertTrue(submit.err().contains("  SUCCEEDED  "), submit.toString());
  }

  @Test
  void aFailingJobEndsFailedWithExitCode1AndItsStandardErrorCanBeRead() throws Exception {
    Path job =
        TestJobs.posix(dir, "fails", "/bin/sh", "-c", "echo 'no positions for DESK-9' >&2; exit 3");
    Result submit = gantry.run("submit", "--wait", job.toString());
    assertEquals(1, submit.exitCode(), submit.toString());
    String id = submittedId(submit);
    assertTrue(submit.out().contains(id + "  FAILED "), submit.toString());
    assertTrue(submit.out().contains("  exit 3  reason: "), submit.toString());
    assertEquals(1, gantry.run("wait", "-q", id).exitCode());
    assertEquals(
        new Result(0, "no positions for DESK-9\n", ""), gantry.run("output", "--stderr", id));
    assertEquals(new Result(0, "", ""), gantry.run("output", id));

    String statusLine =
        gantry
            .run("status", id)
            .out()
            .lines()
            .filter(l -> l.contains("  reason: "))
            .findFirst()
            .orElseThrow();
    String reason =
        statusLine.substring(statusLine.indexOf("  reason: ") + "  reason: ".length()).strip();
    assertFalse(reason.isEmpty());
    Result list = gantry.run("list", "--state", "FAILED");
    assertTrue(
        list.out().startsWith("JOB ID ")
            && list.out().lines().findFirst().orElseThrow().endsWith("EXIT  REASON"),
        list.toString());
    assertTrue(
        list.out()
            .lines()
            .anyMatch(
                l ->
                    l.matches(
                        id
                            + "  fails +local +FAILED .* 3 +"
                            + java.util.regex.Pattern.quote(ListCommand.brief(reason)))),
        list.toString());
    List<String> failed =
        gantry.run("list", "-q", "--state", "FAILED,KILLED").out().lines().toList();
    assertTrue(failed.contains(id), failed.toString());
    assertFalse(
        gantry.run("list", "-q", "--state", "SUCCEEDED").out().lines().anyMatch(id::equals));
  }

  @Test
  void outputFollowPrintsWhatARunningJobWritesUntilItEnds() throws Exception {
    Path job = TestJobs.posix(dir, "chatty", "/bin/sh", "-c", "echo first; sleep 1; echo second");
    String id = gantry.run("submit", "-q", job.toString()).out().strip();
    assertEquals(new Result(0, "first\nsecond\n", ""), gantry.run("output", "--follow", id));
  }

  @Test
  void aCharacterSplitAcrossTwoPiecesOfOutputArrivesWhole(GantryTestServer server)
      throws Exception {
    // octal escapes keep the job description ASCII, whatever the server's locale
    Path job =
        TestJobs.posix(
            dir, "euro", "/bin/sh", "-c", "printf 'Gr\\303\\274\\303\\237e, 5 \\342\\202\\254\\n'");
    String id = gantry.run("submit", "-q", job.toString()).out().strip();
    assertEquals(0, gantry.run("wait", "-q", id).exitCode());
    // one byte a piece: ü (2 bytes) and € (3 bytes) each arrive split
    OutputFollower follower =
        new OutputFollower(
            new ServerConnection(server.baseUrl(), null, null),
            id,
            io.gantry.cli.soap.OutputStream.STDOUT,
            1);
    java.io.StringWriter text = new java.io.StringWriter();
    assertTrue(follower.readAvailable(new java.io.PrintWriter(text)));
    assertEquals("Grüße, 5 €\n", text.toString());
  }

  @Test
  void anOutputTheJobTurnedIntoALinkPrintsTheServersNoteNotTheLinkedFile(GantryTestServer server)
      throws Exception {
    Path job = TestJobs.posix(dir, "linker", "/bin/sh", "-c", "echo mine");
    String id = gantry.run("submit", "-q", job.toString()).out().strip();
    assertEquals(0, gantry.run("wait", "-q", id).exitCode());
    Path stdout = server.dataDir().resolve("jobs").resolve(id).resolve("stdout.txt");
    Files.delete(stdout);
    Path secret = Files.writeString(dir.resolve("secret"), "not for the job");
    Files.createSymbolicLink(stdout, secret); // as the job's program could have done
    Result output = gantry.run("output", id);
    assertEquals("", output.out());
    assertTrue(
        output.err().startsWith("gantry: the job's stdout file stdout.txt is a symbolic link"),
        output.toString());
  }

  @Test
  void anInvalidDocumentIsRefusedOfflineWithLineAndColumnAndNothingIsSubmitted() throws Exception {
    Path broken = Files.writeString(dir.resolve("broken.jsdl"), ValidateCommandTest.BROKEN);
    long before = gantry.run("list", "-q", "--limit", "1000").out().lines().count();
    Result submit = gantry.run("submit", broken.toString());
    assertEquals(
        new Result(
            1,
            "",
            broken
                + ": INVALID\n  line 6:9 JobDefinition/JobDescription/Application/"
                + "MpirunApplication/NumberOfProcesses: must be at least 1, not 0\n"),
        submit);
    assertEquals(before, gantry.run("list", "-q", "--limit", "1000").out().lines().count());
  }

  @Test
  void aDocumentOnlyTheServerCanRefuseGetsTheServersReport() throws Exception {
    Result submit = gantry.run("submit", TestJobs.tooBigForTheServer(dir).toString());
    assertEquals(1, submit.exitCode(), submit.toString());
    assertEquals("", submit.out());
    assertTrue(submit.err().contains(": INVALID\n"), submit.toString());
    assertTrue(
        submit.err().contains("64 processes; this server has 2 compute slots"), submit.toString());
  }

  @Test
  void aMissingFileIsAUsageError() {
    Result submit = gantry.run("submit", dir.resolve("nowhere.jsdl").toString());
    assertEquals(
        new Result(2, "", "gantry: " + dir.resolve("nowhere.jsdl") + ": no such file\n"), submit);
  }

  @Test
  void serverInfoNamesTheEndpointAndVersionAndAUserNameIsAccepted() {
    Result info = gantry.run("--user", "alice", "server-info");
    assertEquals(0, info.exitCode(), info.toString());
    assertTrue(info.out().contains("version               0.1.0\n"), info.toString());
    assertTrue(info.out().contains("compute slots         2\n"), info.toString());
  }
}
