package io.gantry.server.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.JobManagement;
import io.gantry.server.api.UserAccountFault;
import io.gantry.server.api.UserInfo;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.TestAccount;
import jakarta.xml.ws.WebServiceException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Administrators manage users over SOAP while the server runs on its embedded H2 job store (which
 * gantry-server user cannot open then): every change takes effect at the next request, the account
 * rules of gantry-server user apply, and a plain user is refused.
 */
class UserAdministrationOverSoapTest {
  static final String ADMIN = "admin";
  static final String ALICE = "alice";
  static final String PASSWORD = "a password of the tests";

  @TempDir static Path dir;
  static GantryTestServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        GantryTestServer.builder(dir)
            .secure()
            .account(new TestAccount(ADMIN, PASSWORD, true, null))
            .account(new TestAccount(ALICE, PASSWORD, false, "gantry-test-alice"))
            .start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static JobManagement as(String user, String password) {
    return JobManagementClients.of(server, new Login.Basic(user, password));
  }

  @Test
  void anAdministratorAddsChangesAndRemovesAUserWhileTheServerRuns() throws Exception {
    JobManagement admin = as(ADMIN, PASSWORD);
    assertEquals(
        List.of("admin admin null", "alice user gantry-test-alice"), names(admin.listUsers()));

    UserInfo carol = admin.addUser("carol", "carol's first password", "user", null);
    assertEquals("carol user null", name(carol));
    as("carol", "carol's first password").getServerInfo(); // her login works at once
    assertThrows(AccessDeniedFault.class, () -> as("carol", "carol's first password").listUsers());

    admin.setUserPassword("carol", "carol's second password");
    assertThrows(
        WebServiceException.class, () -> as("carol", "carol's first password").getServerInfo());
    JobManagement carolNow = as("carol", "carol's second password");

    assertEquals("carol admin null", name(admin.setUserRole("carol", "admin")));
    assertEquals(3, carolNow.listUsers().size(), "carol is an administrator now");
    assertEquals(
        "carol admin gantry-test-bob", name(admin.setUserOsAccount("carol", "gantry-test-bob")));
    assertEquals("carol admin null", name(admin.setUserOsAccount("carol", null)));

    admin.removeUser("carol");
    assertThrows(WebServiceException.class, carolNow::getServerInfo, "a removed user's login");
    assertEquals(2, admin.listUsers().size());
  }

  @Test
  void theAccountRulesOfGantryServerUserApply() {
    JobManagement admin = as(ADMIN, PASSWORD);
    assertEquals(
        "USER_EXISTS", refused(() -> admin.addUser(ALICE, "another long password", "user", null)));
    assertEquals("INVALID_ACCOUNT", refused(() -> admin.addUser("dave", "short", "user", null)));
    assertEquals(
        "INVALID_ACCOUNT",
        refused(() -> admin.addUser("bad name", "a long password", "user", null)));
    assertEquals("INVALID_ACCOUNT", refused(() -> admin.setUserOsAccount(ALICE, "root")));
    assertEquals(
        "INVALID_ACCOUNT", refused(() -> admin.setUserOsAccount(ALICE, "no-such-os-account")));
    assertEquals("USER_NOT_FOUND", refused(() -> admin.removeUser("nobody-here")));
    assertEquals("LAST_ADMINISTRATOR", refused(() -> admin.removeUser(ADMIN)));
    assertEquals("LAST_ADMINISTRATOR", refused(() -> admin.setUserRole(ADMIN, "user")));
    assertEquals("gantry-test-alice", osAccountOf(admin, ALICE), "nothing changed");
  }

  @Test
  void aPlainUserIsRefusedEveryUserOperation() {
    JobManagement alice = as(ALICE, PASSWORD);
    assertThrows(AccessDeniedFault.class, alice::listUsers);
    assertThrows(
        AccessDeniedFault.class, () -> alice.addUser("eve", "eve's long password", "admin", null));
    assertThrows(AccessDeniedFault.class, () -> alice.setUserRole(ALICE, "admin"));
    assertThrows(AccessDeniedFault.class, () -> alice.setUserPassword(ADMIN, "taken over, surely"));
    assertThrows(AccessDeniedFault.class, () -> alice.setUserOsAccount(ALICE, "gantry-test-bob"));
    assertThrows(AccessDeniedFault.class, () -> alice.removeUser(ADMIN));
    as(ADMIN, PASSWORD).getServerInfo(); // the administrator's password is unchanged
    assertEquals("gantry-test-alice", osAccountOf(as(ADMIN, PASSWORD), ALICE));
  }

  private interface Call {
    void run() throws Exception;
  }

  private static String refused(Call call) {
    UserAccountFault fault = assertThrows(UserAccountFault.class, call::run);
    assertTrue(fault.getFaultInfo().message.length() > 5, fault.getFaultInfo().message);
    return fault.getFaultInfo().code;
  }

  private static String osAccountOf(JobManagement admin, String user) {
    try {
      return admin.listUsers().stream()
          .filter(u -> u.name.equals(user))
          .findFirst()
          .orElseThrow()
          .osAccount;
    } catch (AccessDeniedFault e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> names(List<UserInfo> users) {
    return users.stream().map(UserAdministrationOverSoapTest::name).toList();
  }

  private static String name(UserInfo u) {
    return u.name + " " + u.role + " " + u.osAccount;
  }
}
