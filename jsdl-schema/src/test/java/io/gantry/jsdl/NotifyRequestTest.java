package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code gx:Notify}: which of a job's events go to which webhooks and mailboxes. */
class NotifyRequestTest {
  private static String job(String notify) {
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
        + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription><jsdl:Application>"
        + "<posix:POSIXApplication><posix:Executable>/bin/true</posix:Executable>"
        + "</posix:POSIXApplication></jsdl:Application>"
        + notify
        + "</jsdl:JobDescription></jsdl:JobDefinition>";
  }

  private static ParseResult parse(String notify) {
    return new JsdlParser().parse(job(notify).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aValidNotifyIsReadWithItsEventsAndTargets() {
    String notify =
        "<gx:Notify><gx:Event>job.failed</gx:Event><gx:Event>job.stage-out-finished</gx:Event>"
            + "<gx:Webhook>https://alerts.bank.example/gantry</gx:Webhook>"
            + "<gx:Mail>risk-ops@bank.example</gx:Mail></gx:Notify>";
    ParseResult parsed = parse(notify);
    assertTrue(parsed.isValid(), parsed.report().toString());
    NotifyRequest request = NotifyRequest.of(job(notify)).orElseThrow();
    assertEquals(List.of("https://alerts.bank.example/gantry"), request.webhooks());
    assertEquals(List.of("risk-ops@bank.example"), request.mailboxes());
    assertTrue(request.wants("io.gantry.job.failed"));
    assertFalse(request.wants("io.gantry.job.state-changed"));
    assertTrue(
        NotifyRequest.of(job("<gx:Notify><gx:Webhook>https://a.example/</gx:Webhook></gx:Notify>"))
            .orElseThrow()
            .wants("io.gantry.job.state-changed"),
        "no Event: every event");
    assertEquals(Optional.empty(), NotifyRequest.of(job("")));
  }

  @Test
  void anEventOfTheWrongFormAndASecondNotifyAreRefused() {
    ParseResult wrong = parse("<gx:Notify><gx:Event>Job Failed!</gx:Event></gx:Notify>");
    assertFalse(wrong.isValid());
    assertTrue(
        wrong.report().problems().stream().anyMatch(p -> p.path().contains("Event")),
        wrong.report().toString());
    ParseResult twice = parse("<gx:Notify/><gx:Notify/>");
    assertFalse(twice.isValid());
    assertTrue(
        twice.report().problems().stream()
            .anyMatch(p -> p.message().contains("only one Notify is allowed")),
        twice.report().toString());
  }
}
