package io.gantry.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Looking accounts up through NSS, and the accounts a job may never run as. */
class OsAccountsTest {
  @Test
  void anExistingAccountIsLookedUpWithItsGroups() {
    JobAccount nobody = OsAccounts.lookup("nobody");
    assertEquals(65534, nobody.uid());
    assertTrue(nobody.groups().contains(nobody.gid()), nobody.toString());
  }

  @Test
  void rootAndRootsGroupAreNeverJobAccounts() {
    var e = assertThrows(IllegalArgumentException.class, () -> OsAccounts.lookup("root"));
    assertTrue(e.getMessage().contains("never run as root"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new JobAccount("x", 1000, 0, List.of()));
    assertThrows(
        IllegalArgumentException.class, () -> new JobAccount("x", 1000, 1000, List.of(1000, 0)));
  }

  @Test
  void aMissingAccountSaysHowToCreateIt() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> OsAccounts.lookup("gantry-no-such-account"));
    assertTrue(
        e.getMessage().contains("does not exist") && e.getMessage().contains("useradd"),
        e.getMessage());
  }

  @Test
  void namesThatCouldBeReadAsOptionsOrPathsAreRefusedBeforeAnyLookup() {
    for (String name : List.of("-rf", "--help", "../etc", "a b", "", "x\ny")) {
      assertThrows(IllegalArgumentException.class, () -> OsAccounts.lookup(name), name);
    }
  }
}
