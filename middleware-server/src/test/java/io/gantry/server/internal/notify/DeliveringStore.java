package io.gantry.server.internal.notify;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Run in its own JVM by {@link NotificationsSurviveKillTest}, as the server's store and delivery
 * thread are: {@code produce} moves eight jobs through their whole lives while the thread delivers,
 * {@code drain} only delivers; both exit once the outbox is empty (unless killed first).
 *
 * <p>Arguments: store base, signing key file, trust store (PKCS12, password "changeit"), allowed
 * host:port, webhook URL, mode.
 */
public final class DeliveringStore {
  private static final List<JobState> LIFE =
      List.of(
          JobState.QUEUED,
          JobState.STAGING_IN,
          JobState.STAGED,
          JobState.RUNNING,
          JobState.STAGING_OUT,
          JobState.SUCCEEDED);

  public static void main(String[] args) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(args[2]))) {
      trust.load(in, "changeit".toCharArray());
    }
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(Path.of(args[0])))) {
      WebhookSender sender =
          new WebhookSender(
              List.of(args[3]),
              SigningKey.loadOrCreate(Path.of(args[1])),
              trust,
              Clock.systemUTC());
      NotificationDelivery delivery =
          new NotificationDelivery(
              store.outbox(),
              store,
              store.subscriptions(),
              sender,
              MailSender.disabled("urn:gantry:test"),
              "urn:gantry:test",
              Duration.ofHours(1),
              Duration.ofMillis(20),
              Clock.systemUTC());
      delivery.start();
      if (args[5].equals("produce")) {
        produce(store, args[4]);
      }
      while (store.outbox().backlog() > 0) {
        Thread.sleep(20);
      }
      delivery.close();
      System.out.println("DRAINED");
    }
  }

  private static void produce(JdbcJobStore store, String hook) {
    for (int i = 0; i < 8; i++) {
      JobRecord job =
          store.submit("alice", "job-" + i, WebhookDeliveryTest.jobWithNotify(List.of(), hook));
      for (int s = 1; s < LIFE.size(); s++) {
        store.transition(job.id(), LIFE.get(s - 1), LIFE.get(s), "step " + s);
      }
    }
  }
}
