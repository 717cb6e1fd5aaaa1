package io.gantry.server.internal.notify;

import io.gantry.jsdl.NotifyRequest;
import io.gantry.server.internal.jobstore.JobId;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.NotifySubscription;
import io.gantry.server.internal.jobstore.NotifySubscriptions;
import io.gantry.server.internal.jobstore.Outbox;
import io.gantry.server.internal.jobstore.OutboxEvent;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delivery thread: sends the outbox's due events to their subscribers and records what each
 * receiver confirmed. Delivery is at least once: a server killed between a receiver's 2xx and the
 * record of it sends that event again after the restart, with the same id.
 *
 * <ol>
 *   <li>A commit that wrote an event wakes the thread; otherwise it looks every few seconds (for
 *       retries that have come due).
 *   <li>An event goes to each webhook and mailbox of its job's {@code gx:Notify} that asks for its
 *       type, and of its owner's standing subscriptions ({@code gantry notify}) that ask for it,
 *       and has not confirmed it yet; a webhook off notify.allowed-hosts, or a mailbox off
 *       notify.mail-allowed, is refused and never contacted.
 *   <li>A pass where some target failed is retried after an exponential back-off with jitter, until
 *       the event is older than notify.max-age; then delivery gives up on it.
 * </ol>
 */
public final class NotificationDelivery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NotificationDelivery.class);
  private static final Duration RETRY_CAP = Duration.ofMinutes(15);
  private static final Duration IDLE_LOOK = Duration.ofSeconds(5);
  private static final int BATCH = 100;
  private static final int REQUESTS_KEPT = 4096;
  private static final String SCHEDULE_EVENTS = "io.gantry.schedule.";

  private final Outbox outbox;
  private final JobStore jobs;
  private final NotifySubscriptions subscriptions;
  private final WebhookSender webhooks;
  private final MailSender mail;
  private final String source;
  private final Duration maxAge;
  private final Duration firstRetry;
  private final Clock clock;
  private final Semaphore wake = new Semaphore(0);

  /**
   * Each recent job's gx:Notify, parsed once: a job has six events or more, and parsing its whole
   * JSDL for each was 14% of the server's CPU under submit load (middleware-server/bench/README.md,
   * "Latest figures"). A job's description never changes once stored. The least recently used jobs
   * go first; {@link #requestOf} holds the lock (a pass runs on one thread, tests call {@link
   * #deliverDue} on theirs).
   */
  private final Map<JobId, Optional<NotifyRequest>> requests =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<JobId, Optional<NotifyRequest>> eldest) {
          return size() > REQUESTS_KEPT;
        }
      };

  private final Thread thread;
  private volatile boolean stopping;
  private volatile Runnable stopListening = () -> {};
  private Instant lastPurge = Instant.EPOCH;

  NotificationDelivery(
      Outbox outbox,
      JobStore jobs,
      NotifySubscriptions subscriptions,
      WebhookSender webhooks,
      MailSender mail,
      String source,
      Duration maxAge,
      Duration firstRetry,
      Clock clock) {
    this.outbox = outbox;
    this.jobs = jobs;
    this.subscriptions = subscriptions;
    this.webhooks = webhooks;
    this.mail = mail;
    this.source = source;
    this.maxAge = maxAge;
    this.firstRetry = firstRetry;
    this.clock = clock;
    this.thread = new Thread(this::run, "gantry-notifications");
    thread.setDaemon(true);
  }

  void start() {
    stopListening = outbox.onWrite(wake::release);
    thread.start();
  }

  private void run() {
    while (!stopping) {
      try {
        while (!stopping && deliverDue() == BATCH) {
          // a full batch: more may be due at once
        }
        purgeOccasionally();
      } catch (RuntimeException e) {
        // the job store failing (disk full, database stopped): the storage watch reports it; the
        // events stay in the outbox and go out once it is back
        log.warn("notification delivery paused: {}", e.getMessage());
      }
      try {
        wake.tryAcquire(IDLE_LOOK.toMillis(), TimeUnit.MILLISECONDS);
        wake.drainPermits();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One pass over the due events; returns how many there were. */
  int deliverDue() {
    List<OutboxEvent> due = outbox.due(BATCH);
    // the pass's done marks, written together at its end (one commit, not one per event): the next
    // pass reads the outbox only after they are written; a crash before loses only marks, and the
    // events they close are done again, their confirmed targets skipped (Outbox.done)
    Map<Long, String> done = new LinkedHashMap<>();
    try {
      for (OutboxEvent event : due) {
        if (stopping) {
          break;
        }
        try {
          deliver(event, done);
        } catch (InterruptedException e) {
          stopping = true; // aborted by close(): the event stays due for the next start
        }
      }
    } finally {
      outbox.done(done);
    }
    return due.size();
  }

  private void deliver(OutboxEvent event, Map<Long, String> done) throws InterruptedException {
    Set<String> webhookSet = new LinkedHashSet<>();
    Set<String> mailSet = new LinkedHashSet<>();
    targets(event, webhookSet, mailSet);
    List<String> webhookTargets = List.copyOf(webhookSet);
    List<String> mailTargets = List.copyOf(mailSet);
    Set<String> confirmed =
        webhookTargets.isEmpty() && mailTargets.isEmpty()
            ? Set.of()
            : outbox.confirmedTargets(event.seq());
    List<String> failures = new ArrayList<>();
    int sent = 0;
    String json = webhookTargets.isEmpty() ? null : CloudEvent.json(event, source);
    for (String url : webhookTargets) {
      String hash = sha256(url);
      if (confirmed.contains(hash)) {
        continue;
      }
      Optional<String> refusal = webhooks.refusal(url);
      if (refusal.isPresent()) {
        log.warn("event {} about {}: {}", event.id(), event.subject(), shown(refusal.get(), url));
        continue;
      }
      Optional<String> failure = webhooks.post(url, json);
      if (failure.isEmpty()) {
        outbox.confirmed(event.seq(), hash);
        sent++;
      } else {
        failures.add(shown(failure.get(), url));
      }
    }
    for (String address : mailTargets) {
      // "mailto:" keeps a mailbox's confirmation apart from any webhook's
      String hash = sha256("mailto:" + address);
      if (confirmed.contains(hash)) {
        continue;
      }
      Optional<String> refusal = mail.refusal(address);
      if (refusal.isPresent()) {
        log.warn("event {} about {}: {}", event.id(), event.subject(), refusal.get());
        continue;
      }
      Optional<String> failure = mail.send(address, event);
      if (failure.isEmpty()) {
        outbox.confirmed(event.seq(), hash);
        sent++;
      } else {
        failures.add(failure.get());
      }
    }
    finish(event, sent, failures, done);
  }

  private void finish(OutboxEvent event, int sent, List<String> failures, Map<Long, String> done) {
    if (failures.isEmpty()) {
      done.put(event.seq(), sent == 0 ? "no receiver" : "delivered");
      return;
    }
    String error = String.join("; ", failures);
    int attempts = event.attempts() + 1;
    Instant now = clock.instant();
    if (Duration.between(event.time(), now).compareTo(maxAge) > 0) {
      log.warn(
          "event {} about {}: gave up after {} attempts (notify.max-age {}): {}",
          event.id(),
          event.subject(),
          attempts,
          maxAge,
          error);
      done.put(event.seq(), "gave up after " + attempts + " attempts: " + error);
      return;
    }
    outbox.retryAt(event.seq(), attempts, now.plus(backoff(attempts)), error);
  }

  /**
   * Exponential back-off with "equal jitter" (AWS Architecture Blog, "Exponential Backoff and
   * Jitter", 2015): half of min(cap, first * 2^(attempt-1)) plus a random part of the other half,
   * so that receivers that failed together are not retried together.
   */
  Duration backoff(int attempt) {
    long ceiling = firstRetry.toMillis() << Math.min(attempt - 1, 30);
    long capped = Math.min(RETRY_CAP.toMillis(), ceiling <= 0 ? Long.MAX_VALUE : ceiling);
    long half = Math.max(1, capped / 2);
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(half + 1));
  }

  /**
   * Where the event goes: its job's gx:Notify, when it asked for this event, and the standing
   * subscriptions (gantry notify) of the owner that ask for it: those naming no schedule, and those
   * naming the event's schedule (a schedule event's, or the one that submitted the job). A target
   * named twice is sent to once.
   */
  private void targets(OutboxEvent event, Set<String> webhookTargets, Set<String> mailTargets) {
    Optional<JobId> job = jobOf(event);
    String owner = event.owner();
    if (job.isPresent()) {
      requestOf(job.get())
          .filter(request -> request.wants(event.type()))
          .ifPresent(
              request -> {
                webhookTargets.addAll(request.webhooks());
                mailTargets.addAll(request.mailboxes());
              });
      // whose the job is now: a removed user's jobs are no later user's of the same name
      owner = jobs.find(job.get()).map(JobRecord::owner).orElse(null);
    }
    if (owner == null) {
      return;
    }
    List<NotifySubscription> standing =
        subscriptions.list(owner).stream().filter(s -> s.wants(event.type())).toList();
    if (standing.isEmpty()) {
      return;
    }
    String scheduleId = null;
    if (event.type().startsWith(SCHEDULE_EVENTS)) {
      scheduleId = event.subject();
    } else if (job.isPresent() && standing.stream().anyMatch(s -> s.scheduleId() != null)) {
      scheduleId = jobs.origin(job.get()).scheduleId();
    }
    for (NotifySubscription s : standing) {
      if (s.scheduleId() != null && !s.scheduleId().equals(scheduleId)) {
        continue;
      }
      if (s.mailbox() != null) {
        mailTargets.add(s.mailbox());
      } else {
        webhookTargets.add(s.target());
      }
    }
  }

  private synchronized Optional<NotifyRequest> requestOf(JobId job) {
    Optional<NotifyRequest> known = requests.get(job);
    if (known == null) {
      known = jobs.jobDescription(job).flatMap(NotifyRequest::of);
      requests.put(job, known);
    }
    return known;
  }

  /**
   * The job an event is about: its subject, unless it is a schedule's event (whose subject is the
   * schedule's id) or a published one about something else.
   */
  private static Optional<JobId> jobOf(OutboxEvent event) {
    if (event.subject() == null || event.type().startsWith(SCHEDULE_EVENTS)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JobId.parse(event.subject()));
    } catch (IllegalArgumentException notAJob) {
      return Optional.empty();
    }
  }

  private void purgeOccasionally() {
    Instant now = clock.instant();
    if (Duration.between(lastPurge, now).toHours() >= 1) {
      outbox.purgeDoneBefore(now.minus(maxAge));
      lastPurge = now;
    }
  }

  /**
   * A message with the webhook's URL shown without its query and fragment: a URL may carry a
   * receiver's token there, which must not reach logs or the store.
   */
  static String shown(String message, String url) {
    String safe;
    try {
      URI uri = new URI(url);
      safe =
          new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null)
              .toString();
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      safe = "(a webhook URL that is not a URL)";
    }
    return message.replace(url, safe);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    stopping = true;
    stopListening.run();
    wake.release();
    webhooks.abort();
    mail.abort();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(15));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
