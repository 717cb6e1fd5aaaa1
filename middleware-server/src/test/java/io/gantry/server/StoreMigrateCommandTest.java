package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobCharge;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobQuery;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.NotifySubscription;
import io.gantry.server.internal.jobstore.Schedule;
import io.gantry.server.internal.jobstore.SessionTokens;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.testing.EmbeddedPostgresServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * gantry-server store migrate: a populated H2 store (users, jobs in several states with plans,
 * parameters and audit trails, a schedule, a token, a subscription) copied into an empty PostgreSQL
 * database and back into a new H2 store; every table's count and checksum is equal to the
 * original's, the copy lists the same jobs and takes new ones; a target that is not empty is
 * refused, and so is a source made by another schema version.
 */
class StoreMigrateCommandTest {
  private static final String JSDL = "<JobDefinition><JobName>n</JobName></JobDefinition>";

  @TempDir Path dir;

  private record Ran(int code, String out, String err) {}

  private static Ran gantryServer(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new GantryServerCommand());
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int code = command.execute(args);
    return new Ran(code, out.toString(), err.toString());
  }

  @Test
  void anH2StoreMovesToPostgresAndBackWithEqualCountsAndChecksums() throws Exception {
    Path original = dir.resolve("original");
    List<JobRecord> jobs;
    try (JdbcJobStore store =
        JdbcJobStore.open(
            JobStoreSettings.h2File(original.resolve("jobstore").resolve("gantry")))) {
      populate(store);
      jobs = store.list(JobQuery.all(100));
    }
    Ran before = gantryServer("store", "checksums", "--data-dir", original.toString());
    assertEquals(0, before.code(), before.err());

    EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
    String pg = postgres.jdbcUrl(postgres.createDatabase());
    Ran there =
        gantryServer(
            "store",
            "migrate",
            "--data-dir",
            original.toString(),
            "--to",
            pg,
            "--to-user",
            postgres.user());
    assertEquals(0, there.code(), there.err());
    assertTrue(
        there
            .out()
            .endsWith(
                "copied from the H2 store to the PostgreSQL store; counts and"
                    + " checksums equal\n"),
        there.out());
    assertEquals(tableLines(before.out()), tableLines(there.out()));
    assertTrue(before.out().contains("gantry_job_transition "), before.out());

    Ran again =
        gantryServer(
            "store",
            "migrate",
            "--data-dir",
            original.toString(),
            "--to",
            pg,
            "--to-user",
            postgres.user());
    assertEquals(2, again.code(), again.out());
    assertTrue(
        again.err().contains("refused: the target store is not empty: gantry_"), again.err());

    Path back = dir.resolve("back");
    Ran home =
        gantryServer(
            "store",
            "migrate",
            "--from",
            pg,
            "--from-user",
            postgres.user(),
            "--to",
            "jdbc:h2:file:" + back.resolve("jobstore").resolve("gantry"));
    assertEquals(0, home.code(), home.err());
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(back.resolve("jobstore"))),
        "the copy's directory, made by the copy, is the owner's only");
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(back.resolve("jobstore").resolve("gantry.mv.db"))));
    Ran after = gantryServer("store", "checksums", "--data-dir", back.toString());
    assertEquals(0, after.code(), after.err());
    assertEquals(before.out(), after.out());

    // what a server started on either copy reads: the same jobs; a new one gets a fresh number
    try (JdbcJobStore copy =
            JdbcJobStore.open(JobStoreSettings.h2File(back.resolve("jobstore").resolve("gantry")));
        JdbcJobStore onPostgres =
            JdbcJobStore.open(new JobStoreSettings(pg, postgres.user(), "", 2))) {
      assertEquals(jobs, copy.list(JobQuery.all(100)));
      assertEquals(jobs, onPostgres.list(JobQuery.all(100)));
      for (JdbcJobStore store : List.of(copy, onPostgres)) {
        JobRecord next = store.submit("alice", "after the move", JSDL);
        assertTrue(
            jobs.stream().allMatch(j -> j.seq() < next.seq()),
            "the identity restarted past the copy: " + next.seq());
        assertEquals(jobs.size() + 1, store.list(JobQuery.all(100)).size());
      }
      assertEquals(1, copy.schedules().list("carol").size());
      assertEquals(
          1, copy.sessionTokens().list("carol", Instant.now()).size(), "the token came along");
    }
  }

  @Test
  void aSourceOfAnotherSchemaVersionIsRefused() throws Exception {
    Path old = dir.resolve("old");
    String url = "jdbc:h2:file:" + old;
    org.flywaydb.core.Flyway.configure()
        .dataSource(url, "gantry", "")
        .locations("classpath:io/gantry/server/internal/jobstore/migration")
        .table("gantry_schema_version")
        .target("15")
        .load()
        .migrate();
    Ran ran =
        gantryServer(
            "store", "migrate", "--from", url, "--to", "jdbc:h2:file:" + dir.resolve("new"));
    assertEquals(2, ran.code(), ran.out());
    assertTrue(
        ran.err()
            .contains(
                "refused: the source store is at schema version 15 and this"
                    + " gantry-server's is "),
        ran.err());
    assertTrue(ran.err().contains("start this gantry-server on the source once"), ran.err());
  }

  private static List<String> tableLines(String printed) {
    return printed.lines().filter(l -> l.startsWith("gantry_")).toList();
  }

  private static void populate(JdbcJobStore store) {
    store.userAccounts().add(new UserAccount("alice", UserAccount.Role.ADMIN, "hash-a"));
    store.userAccounts().add(new UserAccount("carol", UserAccount.Role.USER, "hash-c"));
    store.userAccounts().setOsAccount("carol", "gantry-test-bob");
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    JobRecord queued = store.submit("carol", "queued", JSDL);
    JobRecord running =
        store.submit(
            JobId.random(),
            "carol",
            "running",
            JSDL,
            new StoredPlan(Path.of("/jobs/r"), "out", "err", List.of()),
            new JobOrigin(Map.of("date", "2026-11-27", "desk", "rates"), null, null, null, null),
            new JobCharge("desk-a", 4));
    store.transition(running.id(), JobState.QUEUED, JobState.STAGING_IN, "stage-in");
    store.transition(running.id(), JobState.STAGING_IN, JobState.STAGED, "staged");
    store.transition(running.id(), JobState.STAGED, JobState.RUNNING, "started");
    JobRecord done = store.submit("alice", "done", JSDL);
    store.transition(done.id(), JobState.QUEUED, JobState.CANCELLED, "cancelled by alice");
    assertTrue(queued.seq() < done.seq());
    Schedule nightly =
        new Schedule(
            "s" + "1".repeat(31),
            "carol",
            "nightly",
            "0 22 * * 1-5",
            "Europe/London",
            Schedule.MissedRuns.RUN_ONCE,
            false,
            now.minusSeconds(600),
            null,
            null,
            null,
            JSDL,
            Map.of("desk", "rates"));
    assertTrue(store.schedules().add(nightly));
    store
        .sessionTokens()
        .add(
            new SessionTokens.StoredToken(
                "t" + "1".repeat(31), "carol", "stamp", "laptop", now, now.plusSeconds(3600)),
            "e".repeat(64));
    store
        .subscriptions()
        .add(
            new NotifySubscription(
                "n" + "1".repeat(31),
                "carol",
                nightly.id(),
                "nightly",
                "mailto:carol@example.org",
                List.of("job.failed"),
                now));
  }
}
