package io.gantry.server.internal.compute;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.GantryServer;
import io.gantry.server.api.InvalidJobFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.server.soap.JobManagementClients;
import io.gantry.server.soap.TestJobs;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On slurm, a job whose account cannot traverse to the job directories (a parent directory of mode
 * 0700) is refused at submit, naming the directory, instead of failing on a node with "couldn't
 * chdir ... Permission denied".
 */
class UnreachableJobDirectoryTest {
  @TempDir Path dir;

  @Test
  void aJobDirectoriesRootUnderAParentTheAccountMayNotEnterIsRefusedAtSubmit() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    Path locked = Files.createDirectory(dir.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    try (GantryServer server =
        GantryServer.start(
            new ServerConfigLoader()
                .load(
                    null,
                    GantryTestServer.builder(dir)
                        .backend("slurm")
                        .setting("staging.root", locked.resolve("jobs").toString())
                        .settingsMap()))) {
      JobManagement client = JobManagementClients.of(server.jobManagementUrl());
      InvalidJobFault refused =
          assertThrows(
              InvalidJobFault.class,
              () -> client.submitJob(TestJobs.job("unreachable").shell("true", 10).document()));
      String problems =
          refused.getFaultInfo().problems.stream().map(p -> p.message).toList().toString();
      assertTrue(
          problems.contains("the job directories cannot be reached by OS account")
              && problems.contains("it may not enter " + locked + " (mode rwx------)"),
          problems);
    }
  }
}
