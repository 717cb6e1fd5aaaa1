package io.gantry.server.internal.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobOrigin;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.JsonObject;
import io.gantry.server.internal.jobstore.NotifySubscription;
import io.gantry.server.internal.jobstore.Schedule;
import io.gantry.server.internal.jobstore.ScheduleStore;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.TestKeystore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks from the job store's outbox to a real HTTPS receiver (the JDK's server with a test
 * certificate), one pass of the delivery thread at a time. One store and receiver for the class.
 */
class WebhookDeliveryTest {
  @TempDir static Path dir;
  private static JdbcJobStore store;
  private static HttpTestServer receiver;
  private static HttpTestServer unlisted;
  private static Path keyFile;
  private static NotificationDelivery delivery;

  @BeforeAll
  static void start() throws Exception {
    TestKeystore tls = TestKeystore.generate(dir);
    receiver = HttpTestServer.https(Files.createDirectories(dir.resolve("www")), tls);
    unlisted = HttpTestServer.https(Files.createDirectories(dir.resolve("other")), tls);
    store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")));
    keyFile = dir.resolve("notify-signing.key");
    WebhookSender sender =
        new WebhookSender(
            List.of("127.0.0.1:" + receiver.port()),
            SigningKey.loadOrCreate(keyFile),
            tls.trustStore(),
            Clock.systemUTC());
    delivery =
        new NotificationDelivery(
            store.outbox(),
            store,
            store.subscriptions(),
            sender,
            MailSender.disabled("https://gantry.example/services/JobManagement"),
            "https://gantry.example/services/JobManagement",
            Duration.ofHours(1),
            Duration.ofMillis(1),
            Clock.systemUTC());
  }

  @AfterAll
  static void stop() {
    receiver.close();
    unlisted.close();
    store.close();
  }

  /** A job description that asks for {@code events} (none: all) at {@code webhooks}. */
  static String jobWithNotify(List<String> events, String... webhooks) {
    StringBuilder notify = new StringBuilder("<gx:Notify>");
    events.forEach(e -> notify.append("<gx:Event>").append(e).append("</gx:Event>"));
    for (String url : webhooks) {
      notify.append("<gx:Webhook>").append(url).append("</gx:Webhook>");
    }
    return "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\""
        + " xmlns:gx=\"urn:gantry:jsdl:ext:1\"><jsdl:JobDescription>"
        + notify
        + "</gx:Notify></jsdl:JobDescription></jsdl:JobDefinition>";
  }

  private static void deliverAllDue() throws InterruptedException {
    for (int pass = 0; pass < 50 && store.outbox().backlog() > 0; pass++) {
      delivery.deliverDue();
      Thread.sleep(5); // retries here wait a millisecond or two (notify.first-retry PT0.001S)
    }
  }

  @Test
  void aJobsChangesArriveSignedAsCloudEventsAndItsFailureWithTheReason() throws Exception {
    String hook = receiver.base() + "/hooks/all?token=s3cret";
    JobRecord job = store.submit("alice", "nightly-var", jobWithNotify(List.of(), hook));
    store.transition(job.id(), JobState.QUEUED, JobState.STAGING_IN, "stage-in started");
    store.transition(job.id(), JobState.STAGING_IN, JobState.FAILED, "database var_db refused");
    int before = receiver.posts().size();
    deliverAllDue();

    List<HttpTestServer.Post> posts =
        receiver.posts().subList(before, receiver.posts().size()).stream()
            .filter(p -> job.id().value().equals(Receiver.member(p.body(), "subject")))
            .toList();
    List<HttpTestServer.Post> changes = Receiver.ofType(posts, "io.gantry.job.state-changed");
    assertEquals(
        List.of("QUEUED", "STAGING_IN", "FAILED"),
        changes.stream().map(p -> Receiver.member(p.body(), "to")).toList());
    HttpTestServer.Post failed = Receiver.ofType(posts, "io.gantry.job.failed").get(0);
    assertEquals("database var_db refused", Receiver.member(failed.body(), "reason"));
    for (HttpTestServer.Post post : posts) {
      Receiver.assertSigned(post, keyFile);
      assertEquals("/hooks/all", post.path());
      assertTrue(post.headers().get("content-type").startsWith("application/cloudevents+json"));
      assertEquals("1.0", Receiver.member(post.body(), "specversion"));
      assertEquals(
          "https://gantry.example/services/JobManagement", Receiver.member(post.body(), "source"));
    }
    assertEquals(0, store.outbox().backlog());
  }

  @Test
  void aFailedDeliveryIsRetriedWithTheSameIdAndOnlyTheEventsAskedForAreSent() throws Exception {
    String hook = receiver.base() + "/hooks/failures";
    receiver.failNext(1);
    JobRecord job = store.submit("bob", "retried", jobWithNotify(List.of("job.failed"), hook));
    store.transition(job.id(), JobState.QUEUED, JobState.FAILED, "cancelled input");
    deliverAllDue();

    List<HttpTestServer.Post> posts =
        receiver.posts().stream().filter(p -> p.path().equals("/hooks/failures")).toList();
    assertEquals(2, posts.size(), "the 503, then the retry: " + posts);
    assertEquals(
        Receiver.member(posts.get(0).body(), "id"), Receiver.member(posts.get(1).body(), "id"));
    assertEquals("io.gantry.job.failed", Receiver.member(posts.get(1).body(), "type"));
  }

  @Test
  void aRedirectIsNeverFollowedAndAHostOffTheAllowListIsNeverContacted() throws Exception {
    receiver.redirect("/hooks/moved", unlisted.base() + "/hooks/elsewhere");
    JobRecord job =
        store.submit(
            "carol",
            "redirected",
            jobWithNotify(
                List.of("job.state-changed"),
                receiver.base() + "/hooks/moved",
                unlisted.base() + "/hooks/direct"));
    delivery.deliverDue();
    delivery.deliverDue();

    assertEquals(List.of(), unlisted.requests());
    assertTrue(
        receiver.posts().stream().anyMatch(p -> p.path().equals("/hooks/moved")),
        receiver.requests().toString());
    assertTrue(store.outbox().backlog() > 0, "the redirected event is still to be delivered");
    // the redirected event stays due; end it here so that the other tests' passes see none
    for (var event : store.outbox().due(100)) {
      if (job.id().value().equals(event.subject())) {
        store.outbox().done(java.util.Map.of(event.seq(), "ended by the test"));
      }
    }
  }

  @Test
  void publishedEventsAndStagingTotalsGoToTheSubscribersOfTheirJob() throws Exception {
    String hook = receiver.base() + "/hooks/published";
    JobRecord job = store.submit("dave", "limits", jobWithNotify(List.of("*"), hook));
    store.recordDataMovements(
        job.id(),
        io.gantry.server.internal.jobstore.DataMovement.STAGE_IN,
        List.of(
            new io.gantry.server.internal.jobstore.DataMovement(
                "STAGE_IN", "sql", "var_db", "q1", "book.csv.gz", 120, 4096, null, 0.5, false)));
    store
        .outbox()
        .publish(
            "io.gantry.var.limit-breached",
            job.id().value(),
            "dave",
            new JsonObject().put("node", "BANK").put("var", 2561109));
    deliverAllDue();

    List<HttpTestServer.Post> posts =
        receiver.posts().stream().filter(p -> p.path().equals("/hooks/published")).toList();
    HttpTestServer.Post staged = Receiver.ofType(posts, "io.gantry.job.stage-in-finished").get(0);
    assertTrue(staged.body().contains("\"rows\":120,\"bytes\":4096"), staged.body());
    HttpTestServer.Post breach = Receiver.ofType(posts, "io.gantry.var.limit-breached").get(0);
    assertTrue(
        breach.body().contains("\"data\":{\"node\":\"BANK\",\"var\":2561109}"), breach.body());
  }

  @Test
  void standingSubscriptionsGetTheOwnersEventsAndTheirSchedulesFiredMissedAndSkipped()
      throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Schedule nightly = schedule("dora", "nightly", now);
    store.schedules().add(nightly);
    String all = receiver.base() + "/hooks/dora-failures";
    String ofSchedule = receiver.base() + "/hooks/dora-nightly";
    store.subscriptions().add(subscription("dora", null, all, List.of("job.failed")));
    store.subscriptions().add(subscription("dora", nightly.id(), ofSchedule, List.of("*")));
    // a second subscription of the same target: one post, not two
    store
        .subscriptions()
        .add(subscription("dora", nightly.id(), ofSchedule, List.of("schedule.fired")));

    // the server was down at 3 times; at its start the latest is claimed and its job submitted
    Instant missedTime = now.minusSeconds(60);
    assertTrue(
        store
            .schedules()
            .claim(nightly.id(), missedTime, "submitting", new ScheduleStore.Missed(3, false)));
    JobId scheduledJob = JobId.random();
    store.submit(
        scheduledJob,
        "dora",
        "nightly-job",
        jobWithNotify(List.of("job.state-changed")),
        new StoredPlan(dir.resolve("jobs"), null, null, List.of()),
        new JobOrigin(Map.of(), null, nightly.id(), nightly.name(), missedTime));
    store.schedules().recordOutcome(nightly.id(), missedTime, scheduledJob.value(), null);
    store.transition(scheduledJob, JobState.QUEUED, JobState.FAILED, "no input");
    // a later time whose job was refused
    store.schedules().claim(nightly.id(), now, "submitting");
    store.schedules().recordOutcome(nightly.id(), now, null, "not submitted: over the limit");
    // dora's own job, not the schedule's, and another user's
    JobRecord own = store.submit("dora", "ad-hoc", jobWithNotify(List.of("job.failed")));
    store.transition(own.id(), JobState.QUEUED, JobState.FAILED, "bad input");
    JobRecord others = store.submit("erin", "other", jobWithNotify(List.of("job.failed")));
    store.transition(others.id(), JobState.QUEUED, JobState.FAILED, "bad input");
    deliverAllDue();

    List<HttpTestServer.Post> toSchedule =
        receiver.posts().stream().filter(p -> p.path().equals("/hooks/dora-nightly")).toList();
    assertEquals(
        List.of(
            "io.gantry.schedule.missed",
            "io.gantry.job.state-changed",
            "io.gantry.schedule.fired",
            "io.gantry.job.state-changed",
            "io.gantry.job.failed",
            "io.gantry.schedule.skipped"),
        toSchedule.stream().map(p -> Receiver.member(p.body(), "type")).toList());
    HttpTestServer.Post missed = toSchedule.get(0);
    assertEquals(nightly.id(), Receiver.member(missed.body(), "subject"));
    assertEquals("nightly", Receiver.member(missed.body(), "schedule"));
    assertTrue(missed.body().contains("\"missed\":3,"), missed.body());
    assertEquals("run-once", Receiver.member(missed.body(), "missedRuns"));
    assertEquals(scheduledJob.value(), Receiver.member(toSchedule.get(2).body(), "jobId"));
    assertEquals(
        "not submitted: over the limit", Receiver.member(toSchedule.get(5).body(), "reason"));
    for (HttpTestServer.Post post : toSchedule) {
      Receiver.assertSigned(post, keyFile);
    }

    List<String> failures =
        receiver.posts().stream()
            .filter(p -> p.path().equals("/hooks/dora-failures"))
            .map(p -> Receiver.member(p.body(), "subject"))
            .toList();
    assertEquals(List.of(scheduledJob.value(), own.id().value()), failures);
    assertEquals(0, store.outbox().backlog());

    // missed-runs skip: the missed time is skipped, in the claim's own transaction
    Schedule skipping = schedule("dora", "skipping", now);
    store.schedules().add(skipping);
    store
        .subscriptions()
        .add(subscription("dora", skipping.id(), ofSchedule, List.of("schedule.skipped")));
    store
        .schedules()
        .claim(skipping.id(), missedTime, "skipped", new ScheduleStore.Missed(1, true));
    deliverAllDue();
    List<HttpTestServer.Post> skipped =
        receiver.posts().stream()
            .filter(p -> p.path().equals("/hooks/dora-nightly"))
            .filter(p -> skipping.id().equals(Receiver.member(p.body(), "subject")))
            .toList();
    assertEquals(1, skipped.size(), "only the skipped event was asked for: " + skipped);
    assertEquals("io.gantry.schedule.skipped", Receiver.member(skipped.get(0).body(), "type"));
  }

  private static Schedule schedule(String owner, String name, Instant created) {
    return new Schedule(
        JobId.random().value(),
        owner,
        name,
        "0 6 * * *",
        "UTC",
        Schedule.MissedRuns.RUN_ONCE,
        false,
        created.minusSeconds(3600),
        null,
        null,
        null,
        jobWithNotify(List.of("job.failed")),
        Map.of());
  }

  private static NotifySubscription subscription(
      String owner, String scheduleId, String url, List<String> events) {
    return new NotifySubscription(
        JobId.random().value(), owner, scheduleId, null, url, events, Instant.now());
  }
}
