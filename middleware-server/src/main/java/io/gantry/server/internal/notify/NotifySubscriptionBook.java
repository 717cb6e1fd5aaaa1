package io.gantry.server.internal.notify;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.NotifySubscriptionInfo;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.NotifySubscription;
import io.gantry.server.internal.jobstore.NotifySubscriptions;
import io.gantry.server.internal.jobstore.Schedule;
import io.gantry.server.internal.jobstore.ScheduleStore;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The notification subscriptions of the SOAP API ({@code gantry notify}): every user adds, lists
 * and removes their own; an administrator lists and removes every user's. A subscription's target
 * is checked against the operator's allow-lists when it is added (and again before every delivery,
 * as a job's gx:Notify is), so a user can only ever notify what the operator allows.
 */
public final class NotifySubscriptionBook {
  /** Subscriptions one user may hold: each event is sent to each of them. */
  static final int PER_USER_LIMIT = 50;

  private static final String EVENT_SYNTAX = "[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)+";
  private static final String PREFIX = "io.gantry.";

  private final NotifySubscriptions store;
  private final ScheduleStore schedules;
  private final WebhookRule webhooks;
  private final MailRule mailboxes;
  private final Clock clock;

  NotifySubscriptionBook(
      NotifySubscriptions store,
      ScheduleStore schedules,
      WebhookRule webhooks,
      MailRule mailboxes,
      Clock clock) {
    this.store = store;
    this.schedules = schedules;
    this.webhooks = webhooks;
    this.mailboxes = mailboxes;
    this.clock = clock;
  }

  /** The book of the server's store, with the allow-lists of its notify.* settings. */
  public static NotifySubscriptionBook of(ServerConfig config, JdbcJobStore store) {
    ServerConfig.Notifications settings = config.notifications();
    return new NotifySubscriptionBook(
        store.subscriptions(),
        store.schedules(),
        WebhookRule.of(settings.allowedHosts()),
        MailRule.of(settings.mail().allowed()),
        Clock.systemUTC());
  }

  public NotifySubscriptionInfo add(
      Caller caller, String target, List<String> events, String schedule) {
    if (target == null || target.isBlank()) {
      throw new InvalidArgumentException("target", "missing: an https:// URL or an e-mail address");
    }
    String stored = target.strip();
    if (stored.length() > 1900) {
      throw new InvalidArgumentException("target", "longer than 1900 characters");
    }
    Optional<String> problem;
    if (stored.contains("://")) {
      problem = webhooks.problem(stored);
    } else {
      problem = mailboxes.problem(stored);
      stored = NotifySubscription.MAILTO + stored;
    }
    if (problem.isPresent()) {
      throw new InvalidArgumentException("target", problem.get());
    }
    String scheduleId = schedule == null || schedule.isBlank() ? null : own(caller, schedule).id();
    if (store.list(caller.name()).size() >= PER_USER_LIMIT) {
      throw new InvalidArgumentException(
          "target",
          "you have "
              + PER_USER_LIMIT
              + " subscriptions, the most one user may hold; remove one first");
    }
    NotifySubscription added =
        new NotifySubscription(
            JobId.random().value(),
            caller.name(),
            scheduleId,
            null,
            stored,
            eventTypes(events),
            clock.instant());
    store.add(added);
    return info(
        store.list(caller.name()).stream()
            .filter(s -> s.id().equals(added.id()))
            .findFirst()
            .orElse(added));
  }

  public List<NotifySubscriptionInfo> list(Caller caller, boolean allUsers)
      throws AccessDeniedFault {
    if (allUsers && !caller.admin()) {
      String message = "only administrators may list every user's notification subscriptions";
      throw new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
    }
    return store.list(allUsers ? null : caller.name()).stream()
        .map(NotifySubscriptionBook::info)
        .toList();
  }

  public NotifySubscriptionInfo remove(Caller caller, String subscriptionId) {
    if (subscriptionId == null || subscriptionId.isBlank()) {
      throw new InvalidArgumentException("subscriptionId", "missing");
    }
    String id = subscriptionId.strip();
    NotifySubscription found =
        store.list(caller.admin() ? null : caller.name()).stream()
            .filter(s -> s.id().equals(id))
            .findFirst()
            .orElseThrow(
                () ->
                    new InvalidArgumentException(
                        "subscriptionId",
                        "no notification subscription " + id + " for user " + caller.name()));
    store.remove(found.id());
    return info(found);
  }

  /** One of the caller's own schedules, by id or name: a subscription covers its owner's only. */
  private Schedule own(Caller caller, String idOrName) {
    String key = idOrName.strip();
    return schedules.list(caller.name()).stream()
        .filter(s -> s.id().equals(key) || s.name().equals(key))
        .findFirst()
        .orElseThrow(
            () ->
                new InvalidArgumentException(
                    "schedule", "no schedule " + key + " of user " + caller.name()));
  }

  /** The event types asked for, without their io.gantry. prefix; none given: every one. */
  private static List<String> eventTypes(List<String> events) {
    List<String> types = new ArrayList<>();
    for (String e : events == null ? List.<String>of() : events) {
      String type = e == null ? "" : e.strip();
      type = type.startsWith(PREFIX) ? type.substring(PREFIX.length()) : type;
      if (!type.equals("*") && !type.matches(EVENT_SYNTAX)) {
        throw new InvalidArgumentException(
            "event",
            "'" + e + "' is no event type; e.g. job.failed, job.state-changed, schedule.missed, *");
      }
      if (!types.contains(type)) {
        types.add(type);
      }
    }
    if (types.isEmpty() || types.contains("*")) {
      return List.of("*");
    }
    if (String.join(" ", types).length() > 1000) {
      throw new InvalidArgumentException("event", "too many event types (1000 characters at most)");
    }
    return types;
  }

  static NotifySubscriptionInfo info(NotifySubscription s) {
    NotifySubscriptionInfo i = new NotifySubscriptionInfo();
    i.subscriptionId = s.id();
    i.owner = s.owner();
    if (s.mailbox() != null) {
      i.mail = s.mailbox();
    } else {
      i.webhook = NotificationDelivery.shown(s.target(), s.target());
    }
    i.event = s.events();
    i.schedule = s.scheduleName() != null ? s.scheduleName() : s.scheduleId();
    i.created = s.createdAt();
    return i;
  }
}
