package io.gantry.dispatcher.slurm;

import io.gantry.dispatcher.JobOutcome;
import io.gantry.dispatcher.RunningJob;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job Slurm runs, followed by polling: one {@code scontrol show job} per interval while Slurm
 * still holds it, then {@code sacct -c} (the job completion log) once the controller has forgotten
 * it. The outcome completes when Slurm reports a final state.
 */
final class SlurmJob implements RunningJob {
  private static final Logger log = LoggerFactory.getLogger(SlurmJob.class);

  /** Polls without any answer from Slurm before the job is given up as lost. */
  private static final int MAX_UNKNOWN_POLLS = 30;

  private final String jobId;
  private final String slurmId;
  private final SlurmClient client;
  private final Instant startedAt;
  private final CompletableFuture<JobOutcome> outcome = new CompletableFuture<>();
  private ScheduledFuture<?> polling;
  private volatile boolean killRequested;
  private int unknownPolls;

  SlurmJob(String jobId, String slurmId, SlurmClient client, Instant startedAt) {
    this.jobId = jobId;
    this.slurmId = slurmId;
    this.client = client;
    this.startedAt = startedAt;
  }

  synchronized void follow(ScheduledExecutorService scheduler, Duration interval) {
    polling =
        scheduler.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The Slurm job id. */
  String slurmId() {
    return slurmId;
  }

  @Override
  public String jobId() {
    return jobId;
  }

  /** The Slurm job id: there is no process of this host to name. */
  @Override
  public long pid() {
    return Long.parseLong(slurmId);
  }

  @Override
  public boolean outlivesServer() {
    return true;
  }

  @Override
  public CompletableFuture<JobOutcome> onExit() {
    return outcome.copy();
  }

  /** {@code scancel}: Slurm sends SIGTERM to every step, and SIGKILL after its own KillWait. */
  @Override
  @SuppressWarnings(
      "FutureReturnValueIgnored") // scancel's outcome is read by the job's poller, not from this
  // future
  public void terminate(Duration grace) {
    if (outcome.isDone()) {
      return;
    }
    killRequested = true;
    CompletableFuture.runAsync(
        () -> {
          try {
            SlurmClient.Result r = client.run("scancel", List.of(slurmId));
            if (!r.succeeded()) {
              log.warn("job {}: scancel {} failed: {}", jobId, slurmId, r.describe());
            }
          } catch (IOException e) {
            log.warn("job {}: scancel {} failed: {}", jobId, slurmId, e.toString());
          }
        });
  }

  private void poll() {
    try {
      Optional<SlurmState> state = query();
      if (state.isEmpty()) {
        if (++unknownPolls >= MAX_UNKNOWN_POLLS) {
          finish(
              new JobOutcome(
                  jobId,
                  255,
                  false,
                  killRequested,
                  startedAt,
                  Instant.now(),
                  "Slurm no longer knows job "
                      + slurmId
                      + " and its completion log has no entry for it"));
        }
        return;
      }
      unknownPolls = 0;
      if (state.get().isFinal()) {
        SlurmState s = state.get();
        boolean timeout = s.state().equals("TIMEOUT");
        boolean cancelled = s.state().equals("CANCELLED");
        int status = s.exitStatus();
        if (status == 0 && !s.state().equals("COMPLETED") && !timeout && !cancelled) {
          status = 1; // e.g. NODE_FAIL with 0:0: never reported as a success
        }
        finish(
            new JobOutcome(
                    jobId,
                    status,
                    timeout,
                    cancelled || (killRequested && !s.state().equals("COMPLETED")),
                    startedAt,
                    Instant.now(),
                    s.describe())
                .withUsage(new JobOutcome.Usage(cpuTime().orElse(null), null)));
      }
    } catch (IOException | RuntimeException e) {
      log.warn("job {}: asking Slurm about job {} failed: {}", jobId, slurmId, e.toString());
    }
  }

  private Optional<SlurmState> query() throws IOException {
    SlurmClient.Result shown = client.run("scontrol", List.of("show", "job", "-o", slurmId));
    if (shown.succeeded()) {
      Optional<SlurmState> s = SlurmState.fromScontrol(shown.stdout());
      if (s.isPresent()) {
        return s;
      }
    }
    // Forgotten by the controller (MinJobAge passed, or it restarted): the completion log.
    SlurmClient.Result logged =
        client.run(
            "sacct",
            List.of("-c", "-n", "-P", "-j", slurmId, "-o", "jobid,state,exitcode,nodelist"));
    return logged.succeeded() ? SlurmState.fromSacct(logged.stdout(), slurmId) : Optional.empty();
  }

  /**
   * The job's CPU time from Slurm's accounting, for the server's (docs/operations.md,
   * "Accounting"); empty where the cluster keeps none (AccountingStorageType=none) or sacct fails.
   */
  private Optional<java.time.Duration> cpuTime() {
    try {
      SlurmClient.Result r =
          client.run("sacct", List.of("-n", "-P", "-j", slurmId, "-o", "jobid,totalcpu"));
      return r.succeeded() ? SlurmCpuTime.fromSacct(r.stdout(), slurmId) : Optional.empty();
    } catch (IOException e) {
      log.debug("job {}: no CPU time from sacct: {}", jobId, e.toString());
      return Optional.empty();
    }
  }

  private synchronized void finish(JobOutcome result) {
    if (polling != null) {
      polling.cancel(false);
    }
    log.info("job {}: Slurm job {} ended: {}", jobId, slurmId, result.describe());
    outcome.complete(result);
  }
}
