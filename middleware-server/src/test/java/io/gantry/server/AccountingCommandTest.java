package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobCharge;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.ProgramUsage;
import io.gantry.server.internal.jobstore.StateChange;
import io.gantry.server.internal.jobstore.StoredPlan;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * gantry-server accounting: the report of the job store in the data directory, per user and per
 * project, as a table, JSON and CSV; a bad period or format is refused with exit code 2.
 */
class AccountingCommandTest {
  @TempDir Path dir;

  private int gantryServer(StringWriter out, StringWriter err, String... args) {
    CommandLine command = new CommandLine(new GantryServerCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }

  private static void ran(JdbcJobStore store, String owner, String project, int cores, double s) {
    JobRecord job =
        store.submit(
            JobId.random(),
            owner,
            "var",
            "<JobDefinition/>",
            new StoredPlan(dir(), "out", "err", List.of()),
            JobOrigin.NONE,
            new JobCharge(project, cores));
    store.transition(job.id(), JobState.QUEUED, JobState.STAGING_IN, "stage-in");
    store.transition(job.id(), JobState.STAGING_IN, JobState.STAGED, "staged");
    store.transition(job.id(), JobState.STAGED, JobState.RUNNING, "started");
    store.transition(
        job.id(),
        StateChange.of(JobState.RUNNING, JobState.FAILED, "exited 1")
            .withUsage(new ProgramUsage(s, s / 2, null)));
  }

  private static Path dir() {
    return Path.of("/jobs/x");
  }

  @Test
  void printsTheReportByUserAndByProjectInEachFormat() {
    try (JdbcJobStore store =
        JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("jobstore").resolve("gantry")))) {
      ran(store, "alice", "desk-a", 4, 3600);
      ran(store, "bob", "desk-b", 2, 1800);
      ran(store, "alice", "desk-b", 1, 360);
    }
    String data = dir.toString();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(
        0,
        gantryServer(
            out, err, "accounting", "--by", "project", "--format", "csv", "--data-dir", data),
        err.toString());
    assertEquals(
        List.of(
            "key,jobs,coreHours,cpuHours,jobsWithCpuTime,tasks,bytesIn,bytesOut",
            "desk-a,1,4.0000,0.5000,1,0,0,0",
            "desk-b,2,1.1000,0.3000,2,0,0,0"),
        out.toString().lines().toList());

    StringWriter json = new StringWriter();
    assertEquals(
        0,
        gantryServer(json, err, "accounting", "--format", "json", "--data-dir", data),
        err.toString());
    assertTrue(
        json.toString()
            .contains(
                "\"by\":\"user\",\"lines\":[{\"key\":\"alice\",\"jobs\":2,\"coreHours\":4.1000,"),
        json.toString());

    StringWriter table = new StringWriter();
    assertEquals(0, gantryServer(table, err, "accounting", "--data-dir", data), err.toString());
    assertTrue(
        table.toString().lines().anyMatch(l -> l.matches("bob\\s+1\\s+1\\.0000\\s.*")),
        table.toString());

    StringWriter none = new StringWriter();
    assertEquals(
        0,
        gantryServer(
            none,
            err,
            "accounting",
            "--from",
            "2999-01-01T00:00:00Z",
            "--to",
            "2999-02-01T00:00:00Z",
            "--format",
            "csv",
            "--data-dir",
            data));
    assertEquals(1, none.toString().lines().count(), none.toString());

    assertEquals(2, gantryServer(none, err, "accounting", "--from", "yesterday"));
    assertTrue(err.toString().contains("'yesterday' is not an instant"), err.toString());
    assertEquals(2, gantryServer(none, err, "accounting", "--by", "desk", "--data-dir", data));
    assertTrue(err.toString().contains("must be user or project"), err.toString());
  }
}
