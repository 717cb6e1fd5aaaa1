package io.gantry.web;

import io.gantry.server.api.AuditEntry;

/** One entry of a job's audit trail as the job page lists it: a state change or a data movement. */
public record TimelineRow(
    String at, String from, String to, String toClass, boolean movement, String text) {
  static TimelineRow of(AuditEntry e) {
    String to = e.toState == null ? "" : e.toState.name();
    return new TimelineRow(
        JobRow.time(e.at),
        e.fromState == null ? "" : e.fromState.name(),
        to,
        to.isEmpty() ? "" : JobRow.stateClass(to),
        "DATA_MOVEMENT".equals(e.kind),
        e.text == null ? "" : e.text);
  }
}
