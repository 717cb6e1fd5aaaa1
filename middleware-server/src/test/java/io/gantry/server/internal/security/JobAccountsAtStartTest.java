package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.GantryServer;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.ValidationResult;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.Login;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import io.gantry.testing.server.TestAccount;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs never run under an account that is missing, root, or the server's: refused at start or
 * submission.
 */
class JobAccountsAtStartTest {
  @TempDir Path dir;

  @Test
  void aDefaultAccountThatDoesNotExistStopsTheServerNamingTheSetting() {
    var settings =
        GantryTestServer.builder(dir)
            .setting("jobs.default-os-account", "gantry-no-such-account")
            .settingsMap();
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> GantryServer.start(new ServerConfigLoader().load(null, settings)).close());
    assertTrue(
        e.getMessage().contains("jobs.default-os-account")
            && e.getMessage().contains("does not exist"),
        e.getMessage());
  }

  @Test
  void aUserWhoseOsAccountWasRemovedHasJobsRefusedBeforeQueueingWhileOthersRun() throws Exception {
    String password = "a long enough password";
    GantryTestServerBuilder builder =
        GantryTestServer.builder(dir)
            .auth(true)
            .account(new TestAccount("carol", password, false, "gantry-test-alice"));
    builder.addAccounts();
    try (JdbcJobStore store =
        JdbcJobStore.open(
            io.gantry.server.internal.jobstore.JobStoreSettings.h2File(
                builder.dataDir().resolve("jobstore").resolve("gantry")))) {
      // as if the operator deleted the account after mapping it
      store.userAccounts().setOsAccount("carol", "gantry-gone-account");
    }
    try (GantryTestServer server = builder.start()) {
      JobManagement carol = JobManagementClients.of(server, new Login.Basic("carol", password));
      ValidationResult result = carol.validateJob(TestJobs.job("j").shell("true", 10).document());
      assertFalse(result.valid);
      assertTrue(
          result.problems.stream()
              .anyMatch(
                  p ->
                      p.message.contains("gantry-gone-account")
                          && p.message.contains("does not exist")),
          () -> result.problems.stream().map(p -> p.message).toList().toString());
    }
  }
}
