package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The file gantry login writes: where it lives, what it holds, who may read it. */
class LoginFileTest {
  static final String STORED_SERVER = "https://hpc-gw.example.org:8443";
  static final String STORED_FINGERPRINT = "AB:".repeat(31) + "CD";
  static final String OTHER_FINGERPRINT = "12:".repeat(31) + "34";

  @TempDir Path dir;
  LoginFile stored;

  @BeforeEach
  void storeALogin() {
    stored = new LoginFile(dir.resolve("gantry/config.properties"));
    stored.write(new StoredLogin(STORED_SERVER, "alice", STORED_FINGERPRINT));
  }

  @Test
  void theLoginFileIsOwnerOnlyInAnOwnerOnlyDirectoryAndHoldsExactlyTheLogin() throws Exception {
    assertEquals(
        "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(stored.path())));
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(stored.path().getParent())));
    assertEquals(
        "# written by gantry login; no password is kept here, but the session token is a"
            + " credential: keep this file to yourself\nserver="
            + STORED_SERVER
            + "\nuser=alice\nserver-fingerprint="
            + STORED_FINGERPRINT
            + "\n",
        Files.readString(stored.path()));
    try (var files = Files.list(stored.path().getParent())) {
      assertEquals(1, files.count(), "no temporary file is left beside it");
    }
  }

  @Test
  void aLineBreakInAUserNameCannotAddASettingOfItsOwn() {
    stored.write(
        new StoredLogin(
            STORED_SERVER, "eve\nserver-fingerprint=" + OTHER_FINGERPRINT, STORED_FINGERPRINT));
    assertEquals(
        new StoredLogin(
            STORED_SERVER, "eve\nserver-fingerprint=" + OTHER_FINGERPRINT, STORED_FINGERPRINT),
        stored.read().orElseThrow());
  }

  @Test
  void theLoginFileLocationFollowsGantryConfigThenXdgConfigHomeThenHome() {
    assertEquals(
        Path.of("/etc/alt.properties"),
        LoginFile.of(
                Map.of(
                    "GANTRY_CONFIG",
                    "/etc/alt.properties",
                    "XDG_CONFIG_HOME",
                    "/x",
                    "HOME",
                    "/home/a"))
            .path());
    assertEquals(
        Path.of("/x/gantry/config.properties"),
        LoginFile.of(Map.of("XDG_CONFIG_HOME", "/x", "HOME", "/home/a")).path());
    assertEquals(
        Path.of("/home/a/.config/gantry/config.properties"),
        LoginFile.of(Map.of("XDG_CONFIG_HOME", "relative", "HOME", "/home/a")).path());
  }

  @ParameterizedTest
  @ValueSource(strings = {"rw-r-----", "rw----r--", "rw--w----", "rw-rw-rw-"})
  void aFileOtherUsersMayReadOrWriteIsRefusedAsSshRefusesSuchAKey(String mode) throws Exception {
    Files.setPosixFilePermissions(stored.path(), PosixFilePermissions.fromString(mode));
    CommandFailure refused = assertThrows(CommandFailure.class, stored::read);
    assertEquals(2, refused.exitCode());
    assertEquals(
        stored.path()
            + " is open to other users ("
            + mode
            + "); it says which server gets your"
            + " password, so gantry does not use it: chmod 600 "
            + stored.path()
            + " if you trust what it says,"
            + " else remove it and run gantry login again",
        refused.getMessage());
  }

  @Test
  void aBadSettingIsRefusedByName() throws Exception {
    Files.writeString(stored.path(), "server=ftp://example.org\n");
    CommandFailure server = assertThrows(CommandFailure.class, stored::read);
    assertEquals(
        stored.path()
            + ": server must be an https:// or http:// URL, not 'ftp://example.org';"
            + " run gantry login again",
        server.getMessage());
    Files.writeString(stored.path(), "server=" + STORED_SERVER + "\nserver-fingerprint=AB:CD\n");
    CommandFailure fingerprint = assertThrows(CommandFailure.class, stored::read);
    assertEquals(
        stored.path()
            + ": server-fingerprint: a SHA-256 fingerprint is 64 hexadecimal digits"
            + " (colons allowed); run gantry login again",
        fingerprint.getMessage());
  }
}
