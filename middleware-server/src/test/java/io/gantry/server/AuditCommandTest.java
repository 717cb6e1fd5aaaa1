package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * gantry-server audit export: the audit trail of the job store in the data directory as JSON lines,
 * and nothing else on its output.
 */
class AuditCommandTest {
  @TempDir Path dir;

  private int gantryServer(StringWriter out, StringWriter err, String... args) {
    CommandLine command = new CommandLine(new GantryServerCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }

  @Test
  void exportPrintsOneJsonLinePerEntryAndOnlyThose() {
    JobRecord job;
    try (JdbcJobStore store =
        JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("jobstore").resolve("gantry")))) {
      job = store.submit("alice", "nightly \"var\"", "<JobDefinition/>");
      store.transition(job.id(), JobState.QUEUED, JobState.FAILED, "database var_db refused");
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(
        0, gantryServer(out, err, "audit", "export", "--data-dir", dir.toString()), err.toString());

    List<String> lines = out.toString().lines().toList();
    assertEquals(2, lines.size(), out.toString());
    assertTrue(
        lines
            .get(0)
            .startsWith(
                "{\"jobId\":\""
                    + job.id().value()
                    + "\",\"user\":\"alice\",\"name\":\"nightly \\\"var\\\"\",\"seq\":1,\"from\":null,"
                    + "\"to\":\"QUEUED\",\"at\":\""),
        lines.get(0));
    assertTrue(lines.get(1).endsWith("\"reason\":\"database var_db refused\"}"), lines.get(1));

    StringWriter none = new StringWriter();
    assertEquals(
        0,
        gantryServer(
            none,
            err,
            "audit",
            "export",
            "--since",
            "2999-01-01T00:00:00Z",
            "--data-dir",
            dir.toString()));
    assertEquals("", none.toString());
    assertEquals(2, gantryServer(none, err, "audit", "export", "--since", "yesterday"));
    assertTrue(err.toString().contains("--since: 'yesterday' is not an instant"), err.toString());
  }
}
