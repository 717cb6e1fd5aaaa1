package io.gantry.server.internal.jobstore;

import java.time.Instant;
import java.util.List;

/**
 * A standing notification subscription (job store V24; docs/operations.md, "Subscriptions").
 *
 * @param id its id (32 hexadecimal digits)
 * @param owner whose it is: it covers their jobs' and schedules' events only
 * @param scheduleId the schedule it is limited to (that schedule's events and its jobs'), or null
 *     for every event of the owner
 * @param scheduleName that schedule's name, when read back; null otherwise
 * @param target an https:// webhook URL, or {@code mailto:ADDRESS}
 * @param events event types without their {@code io.gantry.} prefix, or {@code *}
 * @param createdAt when it was added
 */
public record NotifySubscription(
    String id,
    String owner,
    String scheduleId,
    String scheduleName,
    String target,
    List<String> events,
    Instant createdAt) {
  /** The prefix of a mailbox target. */
  public static final String MAILTO = "mailto:";

  public NotifySubscription {
    events = List.copyOf(events);
  }

  /** Whether an event of {@code type} (e.g. {@code io.gantry.job.failed}) is asked for. */
  public boolean wants(String type) {
    String shortType = type.startsWith("io.gantry.") ? type.substring(10) : type;
    return events.contains("*") || events.contains(shortType);
  }

  /** The mailbox of a {@code mailto:} target, or null for a webhook. */
  public String mailbox() {
    return target.startsWith(MAILTO) ? target.substring(MAILTO.length()) : null;
  }
}
