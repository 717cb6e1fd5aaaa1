package io.gantry.server.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Quotas per user and per project: quota.users.*, quota.user.USER.*, quota.project.PROJECT.*
 * (docs/operations.md, "Accounting and quotas").
 */
final class QuotaSection {
  private QuotaSection() {}

  /** A user name, as user accounts allow it. */
  private static final String USER_NAME = "[A-Za-z0-9][A-Za-z0-9._@-]{0,63}";

  /** A project name, as a job's JobProject must be written (JobSubmission checks it). */
  static final String PROJECT_NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

  private static final int MOST = 1_000_000_000;

  static final Setting<Integer> USERS_CONCURRENT =
      Setting.of("quota.users.concurrent-jobs", SettingType.integer(1, MOST))
          .shownDefault("none")
          .means(
              "for every user without quota.user.USER.concurrent-jobs: most unfinished jobs"
                  + " (waiting or running) a user may have; more are refused at submission");
  static final Setting<Integer> USERS_QUEUED =
      Setting.of("quota.users.queued-jobs", SettingType.integer(1, MOST))
          .shownDefault("none")
          .means(
              "for every user without quota.user.USER.queued-jobs: most jobs a user may have"
                  + " waiting to start (QUEUED)");
  static final Setting<Integer> USERS_CORE_HOURS =
      Setting.of("quota.users.core-hours-per-month", SettingType.integer(1, MOST))
          .shownDefault("none")
          .means(
              "for every user without quota.user.USER.core-hours-per-month: core-hours a user's"
                  + " jobs may use in a calendar month (UTC)");
  static final Setting<Integer> USER_CONCURRENT =
      Setting.of("quota.user.USER.concurrent-jobs", SettingType.integer(1, MOST))
          .namedBy(USER_NAME)
          .shownDefault("`quota.users.concurrent-jobs`")
          .means("most unfinished jobs (waiting or running) user USER may have");
  static final Setting<Integer> USER_QUEUED =
      Setting.of("quota.user.USER.queued-jobs", SettingType.integer(1, MOST))
          .namedBy(USER_NAME)
          .shownDefault("`quota.users.queued-jobs`")
          .means("most jobs user USER may have waiting to start");
  static final Setting<Integer> USER_CORE_HOURS =
      Setting.of("quota.user.USER.core-hours-per-month", SettingType.integer(1, MOST))
          .namedBy(USER_NAME)
          .shownDefault("`quota.users.core-hours-per-month`")
          .means("core-hours user USER's jobs may use in a calendar month (UTC)");
  static final Setting<Integer> PROJECT_CONCURRENT =
      Setting.of("quota.project.PROJECT.concurrent-jobs", SettingType.integer(1, MOST))
          .namedBy(PROJECT_NAME)
          .shownDefault("none")
          .means("most unfinished jobs (waiting or running) of project PROJECT, all users");
  static final Setting<Integer> PROJECT_QUEUED =
      Setting.of("quota.project.PROJECT.queued-jobs", SettingType.integer(1, MOST))
          .namedBy(PROJECT_NAME)
          .shownDefault("none")
          .means("most jobs of project PROJECT waiting to start, all users");
  static final Setting<Integer> PROJECT_CORE_HOURS =
      Setting.of("quota.project.PROJECT.core-hours-per-month", SettingType.integer(1, MOST))
          .namedBy(PROJECT_NAME)
          .shownDefault("none")
          .means("core-hours project PROJECT's jobs may use in a calendar month (UTC)");

  /** The three limits of one scope (every user, a named user, a named project). */
  private record Scope(
      Setting<Integer> concurrent, Setting<Integer> queued, Setting<Integer> coreHours) {
    ServerConfig.Quota read(SettingValues values) {
      return new ServerConfig.Quota(
          values.find(concurrent), values.find(queued), values.find(coreHours));
    }

    /** Each name given any of the three limits, with its limits. */
    Map<String, ServerConfig.Quota> readNamed(SettingValues values) {
      Map<String, ServerConfig.Quota> quotas = new LinkedHashMap<>();
      for (String name : values.names(concurrent, queued, coreHours)) {
        quotas.put(
            name,
            new ServerConfig.Quota(
                values.find(concurrent, name),
                values.find(queued, name),
                values.find(coreHours, name)));
      }
      return quotas;
    }
  }

  private static final Scope EVERY_USER =
      new Scope(USERS_CONCURRENT, USERS_QUEUED, USERS_CORE_HOURS);
  private static final Scope A_USER = new Scope(USER_CONCURRENT, USER_QUEUED, USER_CORE_HOURS);
  private static final Scope A_PROJECT =
      new Scope(PROJECT_CONCURRENT, PROJECT_QUEUED, PROJECT_CORE_HOURS);

  static ServerConfig.Quotas read(SettingValues values) {
    return new ServerConfig.Quotas(
        EVERY_USER.read(values), A_USER.readNamed(values), A_PROJECT.readNamed(values));
  }
}
