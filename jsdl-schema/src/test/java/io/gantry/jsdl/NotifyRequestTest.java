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

  @Test
  void aWebhookTheServerDoesNotAllowIsRefusedAtItsElement() {
    StagingPolicy onlyAlerts =
        new StagingPolicy() {
          @Override
          public Optional<String> inlineDataSourceProblem(String jdbcUrl) {
            return Optional.empty();
          }

          @Override
          public Optional<String> remoteHostProblem(String host, int port) {
            return Optional.empty();
          }

          @Override
          public Optional<String> webhookProblem(String url) {
            return url.startsWith("https://alerts.bank.example/")
                ? Optional.empty()
                : Optional.of("webhook host elsewhere.example:443 is not on notify.allowed-hosts");
          }
        };
    ParseResult parsed =
        new JsdlParser(ParserOptions.defaults(), onlyAlerts)
            .parse(
                job("<gx:Notify><gx:Webhook>https://alerts.bank.example/a</gx:Webhook>"
                        + "<gx:Webhook>https://elsewhere.example/b</gx:Webhook></gx:Notify>")
                    .getBytes(StandardCharsets.UTF_8));
    assertFalse(parsed.isValid());
    assertEquals(1, parsed.report().errors().size(), parsed.report().toString());
    assertTrue(
        parsed.report().errors().get(0).message().contains("not on notify.allowed-hosts"),
        parsed.report().toString());
  }
}
