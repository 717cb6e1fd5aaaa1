package io.gantry.server.internal.datadirectory;

import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStore;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes finished jobs' directories {@code jobs.retention} after they ended, so that disks do not
 * fill with old inputs and outputs. The job's record, audit trail and data movements stay in the
 * job store, and what stage-out wrote to databases and remote hosts is not touched.
 *
 * <p>A sweep lists the job directories' root (each directory is named by its job's id) and asks the
 * store about each: cheaper than reading every finished job's description, and a directory whose
 * job the store does not know is left alone for an operator to judge.
 */
public final class JobDirectoryRetention implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JobDirectoryRetention.class);

  private final JobStore store;
  private final Path jobsRoot;
  private final Duration retention;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-retention");
            t.setDaemon(true);
            return t;
          });

  public JobDirectoryRetention(JobStore store, Path jobsRoot, Duration retention, Clock clock) {
    this.store = store;
    this.jobsRoot = jobsRoot;
    this.retention = retention;
    this.clock = clock;
  }

  /** Sweeps every {@code interval}, the first time right away. */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // sweepQuietly catches everything; closing the timer ends the
  // task
  public JobDirectoryRetention start(Duration interval) {
    long millis = Math.max(50, interval.toMillis());
    timer.scheduleWithFixedDelay(this::sweepQuietly, 0, millis, TimeUnit.MILLISECONDS);
    return this;
  }

  /** True when the job ended more than the retention period ago. */
  public boolean expired(JobRecord job) {
    return job.state().isFinal()
        && job.finishedAt() != null
        && job.finishedAt().plus(retention).isBefore(clock.instant());
  }

  /** True when the job's directory is gone because its retention period ran out. */
  public boolean removed(JobRecord job, Path jobDirectory) {
    return expired(job) && !Files.exists(jobDirectory, LinkOption.NOFOLLOW_LINKS);
  }

  /** What a client reading such a job's files is told. */
  public String removedNote(JobRecord job) {
    Instant due = job.finishedAt().plus(retention);
    return "the job's directory and its output were removed after "
        + due
        + ", "
        + retention
        + " after the job ended (setting jobs.retention); its record, audit trail and staged-out results are kept";
  }

  /** Removes the directories of every job whose retention period has run out; returns how many. */
  public int sweep() throws IOException {
    List<Path> candidates = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(jobsRoot)) {
      dirs.forEach(candidates::add);
    }
    int removed = 0;
    for (Path dir : candidates) {
      Optional<JobRecord> job = jobOf(dir);
      if (job.isPresent() && expired(job.get())) {
        JobDirectoryRemoval.remove(dir);
        log.info(
            "job {}: directory removed, {} after the job ended (jobs.retention)",
            job.get().id(),
            retention);
        removed++;
      }
    }
    return removed;
  }

  private Optional<JobRecord> jobOf(Path dir) {
    try {
      return store.find(JobId.parse(dir.getFileName().toString()));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not a job directory
    }
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (IOException | RuntimeException e) {
      log.warn("removing expired job directories failed, tried again later: {}", e.toString());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
