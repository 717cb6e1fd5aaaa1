package io.gantry.server.internal.notify;

import io.gantry.server.internal.jobstore.JsonObject;
import io.gantry.server.internal.jobstore.OutboxEvent;

/**
 * An outbox event as a CloudEvents 1.0 event in structured JSON mode (the CloudEvents JSON Event
 * Format 1.0: the attributes and {@code data} in one object, media type {@code
 * application/cloudevents+json}).
 */
final class CloudEvent {
  static final String MEDIA_TYPE = "application/cloudevents+json; charset=utf-8";

  private CloudEvent() {}

  /** {@code source} names this server, e.g. its job-management URL. */
  static String json(OutboxEvent event, String source) {
    JsonObject envelope =
        new JsonObject()
            .put("specversion", "1.0")
            .put("id", event.id())
            .put("source", source)
            .put("type", event.type())
            .put("time", event.time().toString())
            .put("datacontenttype", "application/json");
    if (event.subject() != null) {
      envelope.put("subject", event.subject());
    }
    return envelope.putJson("data", event.data()).toString();
  }
}
