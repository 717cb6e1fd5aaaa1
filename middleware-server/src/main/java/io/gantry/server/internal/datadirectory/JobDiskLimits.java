package io.gantry.server.internal.datadirectory;

import io.gantry.dispatcher.RunningJob;
import io.gantry.server.internal.jobstore.DataMovement;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.scheduler.JobFailure;
import io.gantry.server.internal.scheduler.JobPipeline;
import io.gantry.server.internal.scheduler.JobPlan;
import io.gantry.server.internal.scheduler.MetaScheduler;
import io.gantry.server.internal.scheduler.PhaseProgress;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-job disk bounds, so that one job cannot fill the disk every job and the job store share.
 *
 * <ol>
 *   <li>Before stage-in, the staging file system must have {@code staging.min-free-bytes} free;
 *       otherwise the job fails at once, saying so, instead of filling the disk.
 *   <li>While a job stages in, its directory may hold {@code limits.job-staged-bytes}; while its
 *       program runs, it may write {@code limits.job-output-bytes} beyond its staged input. A watch
 *       measures both every check interval and stops a job over a limit, with a reason naming the
 *       setting.
 *   <li>A job quick enough to go over a limit between two measurements is caught at the end of its
 *       phase: the stage-in or stage-out fails with the same reason.
 * </ol>
 *
 * Sizes are the apparent sizes of the regular files in the job directory, links not followed.
 */
public final class JobDiskLimits<P extends JobPlan> implements JobPipeline<P>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JobDiskLimits.class);

  private final JobPipeline<P> pipeline;
  private final Function<P, Path> directoryOf;
  private final JobStore store;
  private final long stagedLimit;
  private final long outputLimit;
  private final long minFree;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-disk-limits");
            t.setDaemon(true);
            return t;
          });

  public JobDiskLimits(
      JobPipeline<P> pipeline,
      Function<P, Path> directoryOf,
      JobStore store,
      long stagedLimit,
      long outputLimit,
      long minFree) {
    this.pipeline = pipeline;
    this.directoryOf = directoryOf;
    this.store = store;
    this.stagedLimit = stagedLimit;
    this.outputLimit = outputLimit;
    this.minFree = minFree;
  }

  /** Measures the scheduler's active jobs every {@code interval}. */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // measureQuietly catches everything; closing the timer ends the
  // task
  public JobDiskLimits<P> watch(MetaScheduler<P> scheduler, Duration interval) {
    long millis = Math.max(50, interval.toMillis());
    timer.scheduleWithFixedDelay(
        () -> measureQuietly(scheduler), millis, millis, TimeUnit.MILLISECONDS);
    return this;
  }

  @Override
  public P plan(JobRecord job, String jobDescription) throws JobFailure {
    return pipeline.plan(job, jobDescription);
  }

  @Override
  public void stageIn(P plan, PhaseProgress progress) throws JobFailure, InterruptedException {
    requireFreeSpace(directoryOf.apply(plan).getParent());
    pipeline.stageIn(plan, progress);
    Optional<String> over = overStagedLimit(plan);
    if (over.isPresent()) {
      throw new JobFailure(over.get());
    }
  }

  @Override
  public RunningJob launch(P plan) throws JobFailure {
    return pipeline.launch(plan);
  }

  @Override
  public Optional<RunningJob> reattach(P plan, String computeRef) throws JobFailure {
    return pipeline.reattach(plan, computeRef);
  }

  @Override
  public Optional<String> startedReference(P plan) {
    return pipeline.startedReference(plan);
  }

  @Override
  public void terminated(P plan) {
    pipeline.terminated(plan);
  }

  @Override
  public void stageOut(P plan, PhaseProgress progress) throws JobFailure, InterruptedException {
    Optional<String> over = overOutputLimit(plan);
    if (over.isPresent()) {
      throw new JobFailure(over.get() + "; nothing was staged out");
    }
    pipeline.stageOut(plan, progress);
  }

  private void requireFreeSpace(Path root) throws JobFailure {
    if (minFree <= 0) {
      return; // no minimum: job directories on a cluster, whose file system is not this host's
    }
    try {
      long free = Files.getFileStore(root).getUsableSpace();
      if (free < minFree) {
        throw new JobFailure(
            "the server's staging file system has "
                + free
                + " bytes free, less than"
                + " staging.min-free-bytes ("
                + minFree
                + "); the job was not staged in, submit it again later");
      }
    } catch (IOException e) {
      throw new JobFailure(
          "cannot tell the free space of the staging file system: " + e.getMessage(), e);
    }
  }

  private Optional<String> overStagedLimit(P plan) {
    long used = usage(directoryOf.apply(plan));
    return used > stagedLimit
        ? Optional.of(
            "the job's staged input reached "
                + used
                + " bytes, more than limits.job-staged-bytes ("
                + stagedLimit
                + ")")
        : Optional.empty();
  }

  private Optional<String> overOutputLimit(P plan) {
    long written = usage(directoryOf.apply(plan)) - stagedBytes(plan.jobId());
    return written > outputLimit
        ? Optional.of(
            "the program wrote "
                + written
                + " bytes into its job directory, more than"
                + " limits.job-output-bytes ("
                + outputLimit
                + ")")
        : Optional.empty();
  }

  private long stagedBytes(JobId id) {
    return store.dataMovements(id).stream()
        .filter(m -> DataMovement.STAGE_IN.equals(m.phase()))
        .mapToLong(m -> Math.max(0, m.bytes()))
        .sum();
  }

  /** Measures every active job once and stops those over a limit. */
  void measure(MetaScheduler<P> scheduler) {
    for (P plan : scheduler.activePlans()) {
      JobState state = store.find(plan.jobId()).map(JobRecord::state).orElse(null);
      Optional<String> over =
          state == JobState.STAGING_IN
              ? overStagedLimit(plan)
              : state == JobState.RUNNING
                  ? overOutputLimit(plan).map(r -> r + "; the program was stopped")
                  : Optional.empty();
      over.ifPresent(
          reason -> {
            if (scheduler.stop(plan.jobId(), reason)) {
              log.info("job {} stopped: {}", plan.jobId(), reason);
            }
          });
    }
  }

  private void measureQuietly(MetaScheduler<P> scheduler) {
    try {
      measure(scheduler);
    } catch (RuntimeException e) {
      log.warn("measuring job directories failed, tried again later: {}", e.toString());
    }
  }

  /** Apparent bytes of the regular files under {@code dir}; 0 when it does not exist. */
  static long usage(Path dir) {
    long[] total = {0};
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()) {
                total[0] += attrs.size();
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE; // removed while walking: it no longer counts
            }
          });
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      log.warn("cannot measure {}: {}", dir, e.toString());
    }
    return total[0];
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
