package io.gantry.server.internal.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * gantry-server's metrics (docs/operations.md, "Metrics"). Each is fed by the one owner of its
 * fact: the meta-scheduler (queue wait, run time), the login check (failures), the staging steps'
 * results (rows, bytes, seconds), and read at scrape time from the job store (jobs by state) and
 * the storage watch. Recording is a lock-free counter or histogram update.
 */
public final class ServerMetrics {
  /** Seconds: from a few seconds' wait to a night's. */
  private static final double[] WAIT_BOUNDS = {1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 12 * 3600};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Histogram queueWait =
      Histogram.builder()
          .name("gantry_job_queue_wait_seconds")
          .help("time from submission to the program's start")
          .classicOnly()
          .classicUpperBounds(WAIT_BOUNDS)
          .register(registry);
  private final Histogram runTime =
      Histogram.builder()
          .name("gantry_job_run_seconds")
          .help("time from the program's start to its end, by how it ended")
          .labelNames("outcome")
          .classicOnly()
          .classicUpperBounds(WAIT_BOUNDS)
          .register(registry);
  private final Counter loginFailures =
      Counter.builder()
          .name("gantry_login_failures_total")
          .help("logins refused: wrong name or password, or refused by the login throttle")
          .labelNames("reason")
          .register(registry);
  private final Counter stagedRows = stagingCounter("gantry_staging_rows_total", "rows staged");
  private final Counter stagedBytes = stagingCounter("gantry_staging_bytes_total", "bytes staged");
  private final Counter stagedSeconds =
      stagingCounter("gantry_staging_seconds_total", "seconds spent staging");

  private final Counter stageInCache =
      Counter.builder()
          .name("gantry_stage_in_cache_total")
          .help("files staged in: served from the stage-in cache (hit) or fetched (miss)")
          .labelNames("result")
          .register(registry);

  /** A staging counter: labelled alike, so that rows, bytes and seconds divide by each other. */
  private Counter stagingCounter(String name, String what) {
    return Counter.builder()
        .name(name)
        .help(what + ", by direction (in, out), data source name and scheme")
        .labelNames("direction", "source", "scheme")
        .register(registry);
  }

  /** The registry scraped by the operations listener. */
  PrometheusRegistry registry() {
    return registry;
  }

  /** A job's program started after waiting this long since its submission. */
  public void jobStarted(Duration sinceSubmission) {
    queueWait.observe(seconds(sinceSubmission));
  }

  /** A job's program ended after this long: outcome is the job's next state, e.g. STAGING_OUT. */
  public void jobEnded(String outcome, Duration runTime) {
    this.runTime.labelValues(outcome).observe(seconds(runTime));
  }

  /** A login was refused: "password" (wrong name or password) or "throttled". */
  public void loginFailed(String reason) {
    loginFailures.labelValues(reason).inc();
  }

  /**
   * A staging step finished: direction "in" or "out", source the data source's configured name (or
   * the host for scp/sftp and URIs; never a URL with credentials, never SQL), scheme e.g. "sql",
   * "scp", "https".
   */
  public void staged(
      String direction, String source, String scheme, long rows, long bytes, Duration took) {
    stagedRows.labelValues(direction, source, scheme).inc(rows);
    stagedBytes.labelValues(direction, source, scheme).inc(bytes);
    stagedSeconds.labelValues(direction, source, scheme).inc(seconds(took));
  }

  /** A file staged in came from the stage-in cache (hit) or from its source (miss). */
  public void stageInCache(boolean hit) {
    stageInCache.labelValues(hit ? "hit" : "miss").inc();
  }

  /** gantry_jobs{state}: read from the job store at each scrape (one grouped count). */
  public void watchJobStates(Supplier<Map<String, Long>> countByState) {
    GaugeWithCallback.builder()
        .name("gantry_jobs")
        .help("jobs in the job store, by state")
        .labelNames("state")
        .callback(cb -> countByState.get().forEach((state, n) -> cb.call(n, state)))
        .register(registry);
  }

  /** gantry_notification_backlog: outbox events not yet delivered (or given up), at each scrape. */
  public void watchNotificationBacklog(java.util.function.LongSupplier backlog) {
    GaugeWithCallback.builder()
        .name("gantry_notification_backlog")
        .help("notification events in the outbox not yet delivered to every receiver")
        .callback(cb -> cb.call((double) backlog.getAsLong()))
        .register(registry);
  }

  /**
   * gantry_storage_ok: 1 while the storage watch sees no trouble (data directory, job directories'
   * root, job store writable and with room), 0 while it reports a problem.
   */
  public void watchStorage(Supplier<Optional<String>> problem) {
    GaugeWithCallback.builder()
        .name("gantry_storage_ok")
        .help("1 while the storage watch finds the data directory, job root and job store usable")
        .callback(cb -> cb.call(problem.get().isPresent() ? 0 : 1))
        .register(registry);
  }

  /** gantry_ready{check}: each readiness check's answer at scrape time (1 ready, 0 not). */
  public void watchReadiness(Readiness readiness) {
    GaugeWithCallback.builder()
        .name("gantry_ready")
        .help("1 while the named readiness check passes (job store, data directory, backend)")
        .labelNames("check")
        .callback(
            cb ->
                readiness
                    .check()
                    .forEach((name, problem) -> cb.call(problem.isEmpty() ? 1 : 0, name)))
        .register(registry);
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
