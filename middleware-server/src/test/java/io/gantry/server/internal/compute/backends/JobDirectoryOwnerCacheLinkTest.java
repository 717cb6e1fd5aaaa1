package io.gantry.server.internal.compute.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gantry.dispatcher.JobAccount;
import io.gantry.dispatcher.OsAccounts;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage-in cache entry linked into a job directory stays the server's and read-only when the
 * directory is handed to the job's account, and the job cannot write or chmod it through its link.
 * Runs as root with the test accounts of scripts/create-test-accounts.
 */
class JobDirectoryOwnerCacheLinkTest {
  @TempDir Path root;

  @Test
  void aJobCannotChangeACachedFileLinkedIntoItsDirectory() throws Exception {
    assumeTrue(OsAccounts.serverUid() == 0, "needs root to hand a directory to another account");
    JobAccount alice = OsAccounts.lookup("gantry-test-alice");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
    Path cache = Files.createDirectory(root.resolve("cache"));
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwx------"));
    Path entry = Files.writeString(cache.resolve("entry"), "position_id\nP1\n");
    Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("r--r--r--"));
    Path job = root.resolve("job");
    JobDirectoryOwner.createPrivate(job);
    Files.createLink(job.resolve("positions.csv"), entry);
    Files.writeString(job.resolve("params.csv"), "name,value\n");

    JobDirectoryOwner.give(job, alice);

    assertEquals(
        alice.uid(),
        Files.getAttribute(job.resolve("params.csv"), "unix:uid", LinkOption.NOFOLLOW_LINKS));
    assertEquals(
        0, Files.getAttribute(job.resolve("positions.csv"), "unix:uid", LinkOption.NOFOLLOW_LINKS));
    assertEquals(0, run(alice, "cat", job.resolve("positions.csv").toString()), "alice reads it");
    assertNotEquals(
        0, run(alice, "sh", "-c", "echo x >> \"$0\"", job.resolve("positions.csv").toString()));
    assertNotEquals(0, run(alice, "chmod", "u+w", job.resolve("positions.csv").toString()));
    assertEquals("position_id\nP1\n", Files.readString(entry));
    assertEquals(
        0, run(alice, "rm", job.resolve("positions.csv").toString()), "but may drop its own link");
    assertEquals("position_id\nP1\n", Files.readString(entry));
  }

  private static int run(JobAccount account, String... command) throws Exception {
    List<String> argv =
        new java.util.ArrayList<>(
            List.of(
                "setpriv",
                "--reuid=" + account.uid(),
                "--regid=" + account.gid(),
                "--clear-groups",
                "--"));
    argv.addAll(List.of(command));
    Process p =
        new ProcessBuilder(argv)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    return p.waitFor();
  }
}
