package io.gantry.server.internal.accounting;

import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.LimitExceededFault;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.jobstore.JobAccounting;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;

/**
 * The quotas of the {@code quota.*} settings, checked as a job is submitted: a user's or a
 * project's unfinished jobs, jobs waiting to start, and core-hours in the current calendar month
 * (UTC). A submission that would go over one is refused with a LimitExceeded fault (code
 * QUOTA_EXCEEDED) that names the setting and the current use. Core-hours are checked before the job
 * runs, so a job is refused once the month's use has reached the quota; a running job is never
 * stopped for it.
 */
public final class SubmissionQuotas {
  private static final String CODE = "QUOTA_EXCEEDED";

  private final ServerConfig.Quotas quotas;
  private final JobAccounting accounting;
  private final Clock clock;

  public SubmissionQuotas(ServerConfig.Quotas quotas, JobAccounting accounting, Clock clock) {
    this.quotas = quotas;
    this.accounting = accounting;
    this.clock = clock;
  }

  /**
   * Whether any quota limits a job of {@code user} in {@code project} (null: none): only such a
   * submission needs to be held apart from others while it is checked and stored. One that no quota
   * limits changes no count a quota is checked against, so it need not wait for the others.
   */
  public boolean limit(String user, String project) {
    ServerConfig.Quota own = quotas.users().get(user);
    return anyLimit(quotas.everyUser())
        || (own != null && anyLimit(own))
        || (project != null && quotas.projects().containsKey(project));
  }

  /**
   * Refuses a new job of {@code user} in {@code project} (null: none) that would go over a quota.
   * The caller holds the submissions apart while it checks and stores, so two jobs cannot both take
   * the last place.
   */
  public void check(String user, String project) throws LimitExceededFault {
    ServerConfig.Quota own =
        quotas.users().getOrDefault(user, new ServerConfig.Quota(none(), none(), none()));
    ServerConfig.Quota every = quotas.everyUser();
    Instant now = clock.instant();
    Instant monthStart =
        YearMonth.from(now.atZone(ZoneOffset.UTC))
            .atDay(1)
            .atStartOfDay(ZoneOffset.UTC)
            .toInstant();
    if (anyLimit(own) || anyLimit(every)) {
      JobAccounting.Use use = accounting.ofUser(user, monthStart, now);
      String who = "user " + user;
      String userKey = "quota.user." + user + ".";
      check(
          pick(own.concurrentJobs(), userKey, every.concurrentJobs(), "quota.users."),
          "concurrent-jobs",
          (double) use.unfinished(),
          who + " has " + use.unfinished() + " unfinished jobs");
      check(
          pick(own.queuedJobs(), userKey, every.queuedJobs(), "quota.users."),
          "queued-jobs",
          (double) use.queued(),
          who + " has " + use.queued() + " jobs waiting to start");
      check(
          pick(own.coreHoursPerMonth(), userKey, every.coreHoursPerMonth(), "quota.users."),
          "core-hours-per-month",
          use.coreSeconds() / 3600,
          who + "'s jobs used " + hours(use.coreSeconds()) + " core-hours this month");
    }
    Optional<ServerConfig.Quota> ofProject =
        Optional.ofNullable(project == null ? null : quotas.projects().get(project));
    if (ofProject.isPresent()) {
      ServerConfig.Quota q = ofProject.get();
      JobAccounting.Use use = accounting.ofProject(project, monthStart, now);
      String key = "quota.project." + project + ".";
      String who = "project " + project;
      check(
          pick(q.concurrentJobs(), key, none(), key),
          "concurrent-jobs",
          (double) use.unfinished(),
          who + " has " + use.unfinished() + " unfinished jobs");
      check(
          pick(q.queuedJobs(), key, none(), key),
          "queued-jobs",
          (double) use.queued(),
          who + " has " + use.queued() + " jobs waiting to start");
      check(
          pick(q.coreHoursPerMonth(), key, none(), key),
          "core-hours-per-month",
          use.coreSeconds() / 3600,
          who + "'s jobs used " + hours(use.coreSeconds()) + " core-hours this month");
    }
  }

  /** A limit and the prefix of the setting that gave it. */
  private record Limit(int value, String prefix) {}

  private static Optional<Limit> pick(
      Optional<Integer> own, String ownPrefix, Optional<Integer> fallback, String fallbackPrefix) {
    if (own.isPresent()) {
      return Optional.of(new Limit(own.get(), ownPrefix));
    }
    return fallback.map(v -> new Limit(v, fallbackPrefix));
  }

  private static void check(Optional<Limit> limit, String name, double used, String use)
      throws LimitExceededFault {
    if (limit.isEmpty() || used < limit.get().value()) {
      return;
    }
    String message =
        "quota "
            + limit.get().prefix()
            + name
            + " is "
            + limit.get().value()
            + " and "
            + use
            + "; the job was not accepted"
            + (name.equals("core-hours-per-month")
                ? " (the month's use resets on the 1st, UTC)"
                : ": wait for some to end or cancel them");
    throw new LimitExceededFault(message, new FaultDetail(CODE, message, null, null));
  }

  private static boolean anyLimit(ServerConfig.Quota q) {
    return q.concurrentJobs().isPresent()
        || q.queuedJobs().isPresent()
        || q.coreHoursPerMonth().isPresent();
  }

  private static Optional<Integer> none() {
    return Optional.empty();
  }

  private static String hours(double coreSeconds) {
    return String.format(Locale.ROOT, "%.2f", coreSeconds / 3600);
  }
}
