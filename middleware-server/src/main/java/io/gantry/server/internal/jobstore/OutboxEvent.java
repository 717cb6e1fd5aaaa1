package io.gantry.server.internal.jobstore;

import java.time.Instant;

/**
 * One event of the notification outbox (docs/operations.md, "Notifications").
 *
 * @param seq the outbox's order
 * @param id the CloudEvents id, the same on every delivery of this event
 * @param type e.g. {@code io.gantry.job.state-changed}
 * @param subject the job id for job events, else null
 * @param owner the user the event concerns (the job's owner), or null
 * @param time when the reported change committed
 * @param data the event's data, a JSON object
 * @param attempts delivery passes that failed so far
 */
public record OutboxEvent(
    long seq,
    String id,
    String type,
    String subject,
    String owner,
    Instant time,
    String data,
    int attempts) {}
