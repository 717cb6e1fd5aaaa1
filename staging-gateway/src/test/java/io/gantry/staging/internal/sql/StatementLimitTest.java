package io.gantry.staging.internal.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.Secret;
import io.gantry.testing.Await;
import io.gantry.testing.H2Databases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code datasource.NAME.max-statements} in the gateway: a step beyond the limit waits for a
 * connection of another to close, over both accounts of the data source; against a real H2.
 */
class StatementLimitTest {
  final String url = H2Databases.newInMemoryUrl();
  final DataSourcePools pools = new DataSourcePools(GatewayOptions.defaults());
  final ExecutorService threads = Executors.newSingleThreadExecutor();

  @AfterEach
  void close() {
    threads.shutdownNow();
    pools.close();
  }

  DataSourceSpec account(String user, int limit) {
    return new DataSourceSpec("risk", url, user, Secret.of(""), limit);
  }

  static int one(Connection c) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void aStepBeyondTheLimitWaitsUntilAnotherClosesItsConnection() throws Exception {
    Connection first = pools.connect(account(H2Databases.user(), 2), false, "step 1");
    Connection second = pools.connect(account(H2Databases.user(), 2), false, "step 2");
    Future<Integer> third =
        threads.submit(
            () -> {
              try (Connection c = pools.connect(account(H2Databases.user(), 2), false, "step 3")) {
                return one(c);
              }
            });
    Await.until(
        "the third step waits", Duration.ofSeconds(10), () -> pools.waitingFor("risk") == 1);
    assertFalse(third.isDone());
    assertEquals(1, one(second), "the connections under the limit work");
    second.close();
    second.close(); // a second close gives back nothing more
    assertEquals(1, third.get());
    first.close();
    assertEquals(0, pools.waitingFor("risk"));
  }

  @Test
  void theLimitIsSharedByTheDataSourcesAccountsAndAFailedConnectGivesItsPermitBack()
      throws Exception {
    Connection writer = pools.connect(account(H2Databases.user(), 1), false, "stage-out");
    Future<Integer> reader =
        threads.submit(
            () -> {
              try (Connection c = pools.connect(account(H2Databases.user(), 1), false, "read")) {
                return one(c);
              }
            });
    Await.until("the reader waits", Duration.ofSeconds(10), () -> pools.waitingFor("risk") == 1);
    writer.close();
    assertEquals(1, reader.get());

    DataSourceSpec broken =
        new DataSourceSpec("risk", "jdbc:h2:tcp://127.0.0.1:1/nothing", "x", Secret.of(""), 1);
    GatewayOptions once =
        GatewayOptions.defaults().withRetries(Duration.ofSeconds(2), 1, Duration.ofMillis(10));
    try (DataSourcePools failing = new DataSourcePools(once)) {
      assertThrows(Exception.class, () -> failing.connect(broken, false, "step"));
      // had the failure kept the only permit, this would wait instead of failing
      Future<Connection> again = threads.submit(() -> failing.connect(broken, false, "step"));
      java.util.concurrent.ExecutionException e =
          assertThrows(
              java.util.concurrent.ExecutionException.class,
              () ->
                  again.get(
                      Await.scaled(Duration.ofSeconds(30)).toMillis(),
                      java.util.concurrent.TimeUnit.MILLISECONDS));
      assertEquals(io.gantry.staging.StagingException.class, e.getCause().getClass());
    }
  }
}
