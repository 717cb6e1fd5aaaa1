package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.auth.UserAccount;
import io.gantry.server.config.PasswordSource;
import io.gantry.server.internal.jobstore.JdbcJobStore;
import io.gantry.server.internal.jobstore.JobStoreSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The administrator a store without users gets on the first start with authentication. */
class FirstAdminTest {
  private static final Pattern PRINTED =
      Pattern.compile("Created administrator 'admin' with password (\\S+) ");

  @TempDir Path dir;

  /** Runs {@code action} and returns what it printed on standard output. */
  private static String stdout(Runnable action) {
    PrintStream saved = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      action.run();
    } finally {
      System.setOut(saved);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withoutAConfiguredPasswordARandomOneIsPrintedOnceAndOnlyItsHashKept() {
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      FirstAdmin first = new FirstAdmin(store.userAccounts(), new PasswordSource.None());
      String printed = stdout(() -> assertTrue(first.createIfNoUsers()));
      Matcher m = PRINTED.matcher(printed);
      assertTrue(m.find(), printed);
      String password = m.group(1);
      assertTrue(password.length() >= 20, "a long random password");
      UserAccount admin = store.userAccounts().find("admin").orElseThrow();
      assertTrue(admin.admin());
      assertFalse(admin.passwordHash().contains(password));
      assertTrue(new PasswordHasher().verify(password.toCharArray(), admin.passwordHash()));

      assertEquals("", stdout(() -> assertFalse(first.createIfNoUsers())), "printed only once");
    }
  }

  @Test
  void aConfiguredPasswordIsUsedAndNotPrinted() throws Exception {
    Path file = Files.writeString(dir.resolve("admin.password"), "configured admin password\n");
    try (JdbcJobStore store = JdbcJobStore.open(JobStoreSettings.h2File(dir.resolve("store")))) {
      String printed =
          stdout(
              () ->
                  new FirstAdmin(store.userAccounts(), new PasswordSource.FromFile(file))
                      .createIfNoUsers());
      assertFalse(printed.contains("configured admin password"), printed);
      assertTrue(
          new PasswordHasher()
              .verify(
                  "configured admin password".toCharArray(),
                  store.userAccounts().find("admin").orElseThrow().passwordHash()));
    }
  }
}
