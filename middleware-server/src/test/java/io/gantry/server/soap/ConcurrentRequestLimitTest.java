package io.gantry.server.soap;

import static io.gantry.server.soap.TestJobs.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.JobManagement;
import io.gantry.server.api.JobStateName;
import io.gantry.testing.Await;
import io.gantry.testing.server.GantryTestServer;
import jakarta.xml.ws.WebServiceException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * limits.concurrent-requests-per-user: a call over the limit is refused at once, with the setting
 * named.
 */
class ConcurrentRequestLimitTest {
  private static final String LIMIT_MESSAGE = "limits.concurrent-requests-per-user";

  @TempDir Path dir;

  @Test
  void aCallBeyondTheUsersConcurrentRequestsIsRefusedAndTheNextOneServed() throws Exception {
    try (GantryTestServer server =
        GantryTestServer.builder(dir)
            .settings(
                Map.of("limits.concurrent-requests-per-user", "1", "limits.kill-grace", "PT4S"))
            .start()) {
      JobManagement client = JobManagementClients.of(server);
      // ignores SIGTERM, so killJob holds its request for the whole grace period
      String id =
          client.submitJob(
              TestJobs.job("stubborn").shell("trap '' TERM; sleep 60", 120).document());
      await(client, id, Duration.ofSeconds(30), s -> s.state == JobStateName.RUNNING, "RUNNING");

      AtomicReference<CompletableFuture<JobStateName>> kill =
          new AtomicReference<>(killAsync(server, id));
      String refusal =
          Await.value(
              "a request refused while killJob holds the permit",
              Duration.ofSeconds(30),
              () -> {
                try {
                  client.getServerInfo();
                } catch (WebServiceException e) {
                  return e.getMessage();
                }
                if (kill.get().isDone()) {
                  kill.set(
                      retryIfRefused(
                          server,
                          id,
                          kill.get())); // our own probe held the permit when the kill came
                }
                return null;
              },
              java.util.Objects::nonNull);
      assertTrue(refusal.contains(LIMIT_MESSAGE), "refused: " + refusal);
      assertEquals(JobStateName.KILLED, kill.get().get(30, TimeUnit.SECONDS));
      assertEquals(
          JobStateName.KILLED,
          client.getJobStatus(id).state,
          "served again once the kill answered");
    }
  }

  private static CompletableFuture<JobStateName> killAsync(GantryTestServer server, String id) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return JobManagementClients.of(server).killJob(id).state;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static CompletableFuture<JobStateName> retryIfRefused(
      GantryTestServer server, String id, CompletableFuture<JobStateName> kill)
      throws InterruptedException {
    try {
      kill.get();
      return kill;
    } catch (ExecutionException e) {
      if (String.valueOf(e.getCause()).contains(LIMIT_MESSAGE)) {
        return killAsync(server, id);
      }
      throw new AssertionError("killJob failed", e);
    }
  }
}
