package io.gantry.server.internal.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobState;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import io.gantry.server.internal.jobstore.JobTransition;
import io.gantry.testing.Await;
import io.gantry.testing.HttpTestServer;
import io.gantry.testing.TestKeystore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store and its delivery thread, in a JVM of their own, killed with SIGKILL three times while
 * jobs change state and their events go out, then started once more to deliver what is left: every
 * state change the store committed reached the receiver at least once, no event arrived for a
 * change that was not committed, and every copy of an event is the same event with the same id.
 */
class NotificationsSurviveKillTest {
  @TempDir Path dir;

  @Test
  void everyCommittedChangeIsDeliveredAtLeastOnceAndNoneIsInvented() throws Exception {
    TestKeystore tls = TestKeystore.generate(dir);
    Path trust = dir.resolve("trust.p12");
    tls.writeTrustStore(trust, "changeit".toCharArray());
    Path key = dir.resolve("notify-signing.key");
    try (HttpTestServer receiver =
        HttpTestServer.https(Files.createDirectories(dir.resolve("www")), tls)) {
      String hook = receiver.base() + "/hooks/kill";
      for (int round = 1; round <= 3; round++) {
        Process server = start(trust, key, receiver, hook, "produce");
        int atLeast = round * 20;
        Await.until(
            atLeast + " deliveries",
            Duration.ofSeconds(60),
            () -> receiver.posts().size() >= atLeast);
        server.destroyForcibly(); // SIGKILL: no shutdown hook, no close
        assertTrue(server.waitFor(30, TimeUnit.SECONDS));
      }
      Process drain = start(trust, key, receiver, hook, "drain");
      assertTrue(drain.waitFor(Await.scaled(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS));
      String output = Files.readString(dir.resolve("drain.log"));
      assertTrue(output.contains("DRAINED"), output);
      check(receiver.posts(), key);
    }
  }

  private void check(List<HttpTestServer.Post> posts, Path key) throws Exception {
    Map<String, String> bodyById = new HashMap<>();
    Set<String> delivered = new HashSet<>();
    for (HttpTestServer.Post post : posts) {
      Receiver.assertSigned(post, key);
      String id = Receiver.member(post.body(), "id");
      String earlier = bodyById.putIfAbsent(id, post.body());
      assertTrue(earlier == null || earlier.equals(post.body()), "two events with id " + id);
      delivered.add(
          Receiver.member(post.body(), "subject") + " " + Receiver.member(post.body(), "to"));
    }
    Set<String> committed = new HashSet<>();
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      for (JobRecord job : store.allInStates(EnumSet.allOf(JobState.class))) {
        for (JobTransition t : store.history(job.id())) {
          committed.add(job.id().value() + " " + t.to());
        }
      }
    }
    assertTrue(committed.size() > 60, "changes committed: " + committed.size());
    assertEquals(committed, delivered, "the committed changes and the delivered events");
    assertEquals(committed.size(), bodyById.size(), "one event id per committed change");
  }

  private Process start(Path trust, Path key, HttpTestServer receiver, String hook, String mode)
      throws Exception {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            DeliveringStore.class.getName(),
            dir.resolve("store").toString(),
            key.toString(),
            trust.toString(),
            "127.0.0.1:" + receiver.port(),
            hook,
            mode)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(mode + ".log").toFile()))
        .start();
  }
}
