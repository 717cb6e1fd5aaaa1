package io.gantry.server.internal.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.jsdl.ParserOptions;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.OutboxEvent;
import io.gantry.server.internal.plan.StagingRules;
import io.gantry.staging.ConnectionPolicy;
import io.gantry.testing.TestKeystore;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * E-mail notifications from the job store's outbox to a real SMTP server (aiosmtpd, see {@link
 * SmtpReceiver}) with STARTTLS and a test certificate, one pass of the delivery thread at a time;
 * and to one without STARTTLS, which must get nothing. One store and server of each kind for the
 * class.
 */
class MailDeliveryTest {
  private static final String SOURCE = "https://gantry.bank.example:8443/services/JobManagement";

  @TempDir static Path dir;
  private static TestKeystore tls;
  private static SmtpReceiver smtp;
  private static JdbcJobStore store;
  private static NotificationDelivery delivery;
  private static Path passwordFile;

  @BeforeAll
  static void start() throws Exception {
    tls = TestKeystore.generate(dir);
    smtp = SmtpReceiver.withStartTls(dir.resolve("smtp"), tls, "gantry", "smtp-s3cret");
    passwordFile = Files.writeString(dir.resolve("smtp-password"), "smtp-s3cret\n");
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));
    delivery = delivery(store, smtp.port(), Duration.ofMillis(1));
  }

  @AfterAll
  static void stop() {
    smtp.close();
    store.close();
  }

  private static NotificationDelivery delivery(JdbcJobStore jobs, int smtpPort, Duration firstRetry)
      throws java.io.IOException {
    ServerConfig.Mail settings =
        new ServerConfig.Mail(
            List.of("bank.example", "ops@partner.example"),
            "localhost", // the name the test certificate carries: the server's identity is checked
            smtpPort,
            "gantry", // logs in after STARTTLS, with the password read from its file
            new PasswordSource.FromFile(passwordFile),
            "gantry@bank.example");
    return new NotificationDelivery(
        jobs.outbox(),
        jobs,
        jobs.subscriptions(),
        new WebhookSender(
            List.of(), SigningKey.loadOrCreate(dir.resolve("key")), null, Clock.systemUTC()),
        new MailSender(settings, tls.trustStore(), SOURCE),
        SOURCE,
        Duration.ofHours(1),
        firstRetry,
        Clock.systemUTC());
  }

  /** A job description that asks for {@code events} (none: all) at {@code mailboxes}. */
  private static String jobWithMail(List<String> events, String... mailboxes) {
    StringBuilder notify = new StringBuilder("<gx:Notify>");
    events.forEach(e -> notify.append("<gx:Event>").append(e).append("</gx:Event>"));
    for (String address : mailboxes) {
      notify.append("<gx:Mail>").append(address).append("</gx:Mail>");
    }
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:posix=\"http://schemas.ggf.org/jsdl/2005/11/jsdl-posix\""
        + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription><jsdl:Application>"
        + "<posix:POSIXApplication><posix:Executable>/bin/true</posix:Executable>"
        + "</posix:POSIXApplication></jsdl:Application>"
        + notify
        + "</gx:Notify></jsdl:JobDescription></jsdl:JobDefinition>";
  }

  private static void deliverAllDue(JdbcJobStore jobs, NotificationDelivery d)
      throws InterruptedException {
    for (int pass = 0; pass < 50 && jobs.outbox().backlog() > 0; pass++) {
      d.deliverDue();
      Thread.sleep(5); // retries here wait a millisecond or two (notify.first-retry PT0.001S)
    }
  }

  private static List<MimeMessage> mailsOf(JobRecord job, String to) throws Exception {
    return smtp.messages().stream()
        .filter(m -> header(m, "Subject").contains(job.id().value()))
        .filter(m -> header(m, "To").equals(to))
        .toList();
  }

  private static String header(MimeMessage message, String name) {
    try {
      String value = message.getHeader(name, ", ");
      return value == null ? "" : jakarta.mail.internet.MimeUtility.decodeText(value);
    } catch (jakarta.mail.MessagingException | java.io.UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String text(MimeMessage message) throws Exception {
    // the decoded body, its lines ended with \n (SMTP carries them ended with CRLF)
    return new String(message.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
        .replace("\r\n", "\n");
  }

  @Test
  void aJobsChangesArriveAsPlainTextMailWithTheJobPageAndAStableEventId() throws Exception {
    smtp.refuseNext(); // the first mail is refused once with a 451: the retry carries the same id
    JobRecord job =
        store.submit("alice", "nightly-var", jobWithMail(List.of(), "risk@bank.example"));
    store.transition(job.id(), JobState.QUEUED, JobState.STAGING_IN, "stage-in started");
    store.transition(job.id(), JobState.STAGING_IN, JobState.FAILED, "database var_db refused");
    deliverAllDue(store, delivery);

    List<MimeMessage> mails = mailsOf(job, "risk@bank.example");
    List<MimeMessage> changes =
        mails.stream().filter(m -> header(m, "Subject").contains("job.state-changed")).toList();
    assertEquals(3, changes.size(), "QUEUED, STAGING_IN, FAILED, each once: " + mails.size());
    String link = "https://gantry.bank.example:8443/jobs/" + job.id().value();
    for (MimeMessage mail : mails) {
      String body = text(mail);
      assertTrue(mail.isMimeType("text/plain"), mail.getContentType());
      assertTrue(body.contains("Job page: " + link), body);
      assertTrue(body.contains("owner: alice"), body);
      assertTrue(body.contains("name: nightly-var"), body);
      assertEquals("gantry@bank.example", header(mail, "From"));
      String eventId = header(mail, MailSender.EVENT_ID_HEADER);
      assertFalse(eventId.isEmpty());
      assertEquals("<" + eventId + ".gantry@bank.example>", header(mail, "Message-ID"));
    }
    // the refused first mail (QUEUED) was sent after the others, on the retry
    MimeMessage queued = changes.get(2);
    assertTrue(text(queued).contains("state: QUEUED\n"), text(queued));
    MimeMessage failed =
        mails.stream().filter(m -> header(m, "Subject").contains("job.failed")).findFirst().get();
    assertTrue(text(failed).contains("reason: database var_db refused"), text(failed));
    assertEquals(0, store.outbox().backlog());
    // ... with the same event id and Message-ID as the refused one
    List<MimeMessage> refused = smtp.refused();
    assertEquals(1, refused.size());
    assertEquals(
        header(refused.get(0), MailSender.EVENT_ID_HEADER),
        header(queued, MailSender.EVENT_ID_HEADER));
    assertEquals(header(refused.get(0), "Message-ID"), header(queued, "Message-ID"));
  }

  @Test
  void theJobPageLinkKeepsThePublicUrlsPathAndOtherwiseUsesTheListeningHost() {
    assertEquals(
        "https://gantry.bank.example/risk/jobs/abc",
        MailText.jobPage("https://gantry.bank.example/risk/", "abc"));
    assertEquals("https://gantry.bank.example:8443/jobs/abc", MailText.jobPage(SOURCE, "abc"));
  }

  @Test
  void aMailboxOffTheAllowListGetsNoMail() throws Exception {
    JobRecord job =
        store.submit(
            "bob",
            "listed-and-not",
            jobWithMail(
                List.of("job.state-changed"), "ops@partner.example", "x@elsewhere.example"));
    deliverAllDue(store, delivery);

    assertEquals(1, mailsOf(job, "ops@partner.example").size());
    assertEquals(0, mailsOf(job, "x@elsewhere.example").size());
    assertEquals(0, store.outbox().backlog(), "a refused mailbox is no failure to retry");
  }

  @Test
  void aMailboxOffTheAllowListIsRefusedAtSubmission() {
    JsdlParser parser =
        new JsdlParser(
            ParserOptions.defaults(),
            new StagingRules(
                ConnectionPolicy.of(false, List.of(), List.of(), List.of()),
                Set.of(),
                url -> Optional.empty(),
                MailRule.of(List.of("bank.example"))::problem));
    ParseResult parsed =
        parser.parse(
            jobWithMail(List.of(), "risk@bank.example", "risk@bank.example.evil.example")
                .getBytes(StandardCharsets.UTF_8));
    assertFalse(parsed.isValid());
    assertEquals(1, parsed.report().errors().size(), parsed.report().toString());
    assertTrue(
        parsed
            .report()
            .errors()
            .get(0)
            .message()
            .contains("risk@bank.example.evil.example is not on notify.mail-allowed"),
        parsed.report().toString());
    assertEquals(
        Optional.of("'Risk <risk@bank.example>' is not one bare e-mail address (user@domain)"),
        MailRule.of(List.of("bank.example")).problem("Risk <risk@bank.example>"));
  }

  @Test
  void aWrongPasswordSendsNothingAndTheFailureDoesNotShowIt() throws Exception {
    Path wrong = Files.writeString(dir.resolve("wrong-password"), "not-the-password\n");
    MailSender sender =
        new MailSender(
            new ServerConfig.Mail(
                List.of("bank.example"),
                "localhost",
                smtp.port(),
                "gantry",
                new PasswordSource.FromFile(wrong),
                "gantry@bank.example"),
            tls.trustStore(),
            SOURCE);
    int before = smtp.messages().size();
    Optional<String> failure =
        sender.send(
            "risk@bank.example",
            new OutboxEvent(
                1, "e-1", "io.gantry.job.failed", null, "alice", Instant.now(), "{}", 0));

    assertTrue(failure.isPresent(), "the server refused the login");
    // its answer, not the client's read timeout (10 s) for an answer that never came
    assertTrue(failure.get().contains("535"), failure.get());
    assertFalse(failure.get().contains("not-the-password"), failure.get());
    assertEquals(before, smtp.messages().size());
  }

  @Test
  void aServerWithoutStartTlsGetsNoMailAndTheEventIsRetried() throws Exception {
    try (SmtpReceiver plain = SmtpReceiver.withoutStartTls(dir.resolve("plain"));
        JdbcJobStore other = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("other")))) {
      NotificationDelivery toPlain = delivery(other, plain.port(), Duration.ofHours(1));
      other.submit("carol", "plain", jobWithMail(List.of("job.state-changed"), "c@bank.example"));
      toPlain.deliverDue();

      assertEquals(List.of(), plain.messages(), "never a mail over a connection without TLS");
      assertEquals(1, other.outbox().backlog(), "the event waits for its retry");
      assertTrue(other.outbox().due(1).isEmpty(), "after a back-off");
    }
  }
}
