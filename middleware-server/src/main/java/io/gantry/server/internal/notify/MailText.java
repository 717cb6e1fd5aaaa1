package io.gantry.server.internal.notify;

import com.nimbusds.jose.util.JSONObjectUtils;
import io.gantry.server.internal.jobstore.OutboxEvent;
import java.net.URI;
import java.text.ParseException;
import java.util.Map;

/**
 * The plain-text summary an e-mail notification carries: what happened to which job, and the link
 * to its page on the server's web face, so that the reader needs no client to look.
 */
final class MailText {
  private static final String PREFIX = "io.gantry.";

  private MailText() {}

  /** The subject line, e.g. {@code [Gantry] job.failed: nightly-var (h3bq…)}. */
  static String subject(OutboxEvent event) {
    Map<String, Object> data = data(event);
    String name = text(data, data.get("schedule") != null ? "schedule" : "name");
    StringBuilder subject = new StringBuilder("[Gantry] ").append(shortType(event.type()));
    if (name != null) {
      subject.append(": ").append(name);
    }
    if (event.subject() != null) {
      subject.append(" (").append(event.subject()).append(')');
    }
    if (data.get("to") != null) {
      subject.append(" is ").append(data.get("to"));
    }
    return subject.toString();
  }

  /**
   * The body: one "field: value" line for each of the event's facts, then the job page's link.
   *
   * @param source the server's public URL (server.public-url) or job-management URL; the job page
   *     is {@code /jobs/ID} on its host
   */
  static String body(OutboxEvent event, String source) {
    Map<String, Object> data = data(event);
    StringBuilder text = new StringBuilder();
    line(text, "event", shortType(event.type()));
    boolean scheduleEvent = event.type().startsWith(PREFIX + "schedule.");
    String jobId = scheduleEvent ? text(data, "jobId") : event.subject();
    line(text, "job", jobId);
    line(text, "name", text(data, "name"));
    line(text, "schedule", text(data, "schedule"));
    line(text, "scheduled for", scheduleEvent ? text(data, "time") : null);
    line(text, "times missed", text(data, "missed"));
    line(text, "missed runs", text(data, "missedRuns"));
    line(text, "owner", event.owner() != null ? event.owner() : text(data, "owner"));
    if (data.get("to") != null) {
      String from = text(data, "from"); // none at submission
      line(text, "state", from == null ? text(data, "to") : from + " -> " + text(data, "to"));
    }
    line(text, "failed in", text(data, "failedIn"));
    line(text, "exit code", text(data, "exitCode"));
    line(text, "reason", text(data, "reason"));
    line(text, "note", text(data, "note"));
    line(text, "steps", text(data, "steps"));
    line(text, "rows", text(data, "rows"));
    line(text, "bytes", text(data, "bytes"));
    line(text, "seconds", text(data, "seconds"));
    line(text, "time", event.time().toString());
    line(text, "event id", event.id());
    if (jobId != null) {
      text.append('\n').append("Job page: ").append(jobPage(source, jobId)).append('\n');
    }
    return text.toString();
  }

  /**
   * The job's page on this server's web face (webapp-jsp's {@code /jobs/ID}).
   *
   * @param base server.public-url (ending in '/'; the page is {@code jobs/ID} below it, so a
   *     reverse proxy's path prefix stays), or the job-management URL (the page is {@code /jobs/ID}
   *     on its host)
   */
  static String jobPage(String base, String jobId) {
    URI uri = URI.create(base);
    return (base.endsWith("/") ? uri.resolve("jobs/" + jobId) : uri.resolve("/jobs/" + jobId))
        .toString();
  }

  private static void line(StringBuilder text, String field, String value) {
    if (value != null) {
      text.append(field).append(": ").append(value).append('\n');
    }
  }

  private static String shortType(String type) {
    return type.startsWith(PREFIX) ? type.substring(PREFIX.length()) : type;
  }

  private static String text(Map<String, Object> data, String field) {
    Object value = data.get(field);
    if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      return Long.toString(n.longValue()); // the JSON reader gives every number as a double
    }
    return value == null ? null : value.toString();
  }

  private static Map<String, Object> data(OutboxEvent event) {
    try {
      return JSONObjectUtils.parse(event.data());
    } catch (ParseException e) {
      // published by another feature in a form this reader does not take: the facts of the
      // envelope still make a mail
      return Map.of();
    }
  }
}
