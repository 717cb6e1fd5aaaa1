package io.gantry.server.internal.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.OsAccounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Can OS account gantry-test-alice traverse to a job directories' root and run an executable: the
 * question asked at submit on the slurm and mpirun-hosts backends, answered from the real modes of
 * real directories (the server runs as root; the directories belong to root).
 */
class JobDirectoryReachTest {
  @TempDir Path dir;
  private final JobAccount alice = OsAccounts.lookup("gantry-test-alice");

  @BeforeEach
  void traversableTempDir() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
  }

  private Path directory(String relative, String mode) throws Exception {
    Path d = Files.createDirectories(dir.resolve(relative));
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString(mode));
    return d;
  }

  @Test
  void aRootUnderTraversableParentsIsReached() throws Exception {
    directory("open", "rwx--x--x");
    Path root = directory("open/jobs", "rwx--x--x");
    assertEquals(Optional.empty(), JobDirectoryReach.problem(root, alice, null));
  }

  @Test
  void aParentTheAccountMayNotEnterIsNamedWithItsMode() throws Exception {
    Path locked = directory("locked", "rwx------");
    Path root = directory("locked/jobs", "rwx--x--x");
    Optional<String> problem = JobDirectoryReach.problem(root, alice, null);
    assertTrue(problem.isPresent());
    assertTrue(
        problem
            .get()
            .startsWith(
                "the job directories cannot be reached by OS account gantry-test-alice: it may"
                    + " not enter "
                    + locked
                    + " (mode rwx------)"),
        problem.get());
  }

  @Test
  void aGroupTheAccountIsInGrantsTheSearch() throws Exception {
    Path parent = directory("group", "rwx--x---");
    Path root = directory("group/jobs", "rwx--x--x");
    assertTrue(JobDirectoryReach.problem(root, alice, null).isPresent(), "root's group: no");
    Files.setAttribute(parent, "unix:gid", alice.gid());
    assertEquals(Optional.empty(), JobDirectoryReach.problem(root, alice, null));
  }

  @Test
  void anExecutableTheAccountCannotReachOrRunIsNamed() throws Exception {
    Path root = directory("jobs", "rwx--x--x");
    Path hidden = directory("tools", "rwx------");
    Path program = Files.writeString(hidden.resolve("mcvar"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
    Optional<String> problem = JobDirectoryReach.problem(root, alice, program.toString());
    assertTrue(
        problem.orElseThrow().startsWith("the executable " + program + " cannot be reached"),
        problem.get());
    Files.setPosixFilePermissions(hidden, PosixFilePermissions.fromString("rwx--x--x"));
    Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-----"));
    assertEquals(
        Optional.of(
            "the executable " + program + " may not be run by OS account gantry-test-alice"),
        JobDirectoryReach.problem(root, alice, program.toString()));
    Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertEquals(Optional.empty(), JobDirectoryReach.problem(root, alice, program.toString()));
  }
}
