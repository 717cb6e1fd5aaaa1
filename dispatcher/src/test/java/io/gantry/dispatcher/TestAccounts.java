package io.gantry.dispatcher;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The OS accounts tests run jobs under, made by scripts/create-test-accounts (scripts/test-all runs
 * it). A missing account fails the test with that advice: skipping would hide that the isolation
 * tests did not run.
 */
final class TestAccounts {
  static final String ALICE = "gantry-test-alice";
  static final String BOB = "gantry-test-bob";

  private TestAccounts() {}

  static JobAccount account(String name) {
    try {
      return OsAccounts.lookup(name);
    } catch (IllegalArgumentException e) {
      return fail(
          "OS account "
              + name
              + " is missing; run scripts/create-test-accounts as root ("
              + e.getMessage()
              + ")");
    }
  }

  /** Gives {@code dir} to the account, mode 0700, as the server does with a job directory. */
  static Path jobDirectoryOf(JobAccount account, Path dir) {
    try {
      Files.setAttribute(dir, "unix:uid", account.uid(), LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(dir, "unix:gid", account.gid(), LinkOption.NOFOLLOW_LINKS);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      return dir;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
