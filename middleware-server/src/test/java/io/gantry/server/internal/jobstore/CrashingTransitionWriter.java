package io.gantry.server.internal.jobstore;

import java.nio.file.Path;

/**
 * Run in its own JVM by {@link H2JobStoreTest}: submits a job, moves it on, reports its id and
 * halts at once, as a server killed right after acting on a transition would.
 */
public final class CrashingTransitionWriter {
  public static void main(String[] args) {
    JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(Path.of(args[0])));
    JobRecord job = store.submit("alice", "crash", "<JobDefinition/>");
    store.transition(
        job.id(), JobState.QUEUED, JobState.STAGING_IN, "picked just before the crash");
    System.out.println("JOB " + job.id());
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }
}
