package io.gantry.server.internal.datadirectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.GantryServer;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.testing.server.GantryTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory holds every job definition, password hash and key: a real server creates it
 * owner-only, and refuses to start on one that other accounts may read or write, or on files
 * another account owns.
 */
class PrivateDataDirectoryTest {
  @TempDir Path dir;

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  private GantryServer start(Path data) throws Exception {
    return GantryServer.start(
        new ServerConfigLoader()
            .load(null, GantryTestServer.builder(dir).dataDir(data).tls(true).settingsMap()));
  }

  @Test
  @SuppressWarnings("StreamResourceLeak") // the concatenated stream closes both listings
  void aFreshServerCreatesItsDataDirectoryOwnerOnly() throws Exception {
    Path data = dir.resolve("data");
    try (GantryServer server = start(data)) {
      assertEquals(
          "rwx--x--x",
          mode(data),
          "traversable, not listable: job accounts reach their own directories");
      assertEquals("rwx--x--x", mode(data.resolve("jobs")));
      for (String name : new String[] {"jobstore", "keys", "tls", "ssh", "web"}) {
        assertEquals("rwx------", mode(data.resolve(name)), name);
      }
      assertEquals(
          "rw-------", mode(data.resolve("jobstore/gantry.mv.db")), "the H2 job store file");
      try (Stream<Path> files =
          Stream.concat(Files.list(data.resolve("keys")), Files.list(data.resolve("tls")))) {
        for (Path file : files.toList()) {
          assertEquals("rw-------", mode(file), file.toString());
        }
      }
    }
    try (GantryServer again = start(data)) {
      // a restart on its own data directory passes its own check
    }
  }

  @Test
  void aDataDirectoryOthersMayListIsRefusedNamingItsPathAndMode() throws Exception {
    Path data = dir.resolve("data");
    start(data).close();
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    Exception e = assertThrows(PrivateDataDirectory.ExposedException.class, () -> start(data));
    assertTrue(e.getMessage().startsWith(data + " has mode rwxr-xr-x"), e.getMessage());
    assertTrue(e.getMessage().contains("chmod 711"), e.getMessage());
  }

  @Test
  void aPrivateKeyOthersMayReadIsRefused() throws Exception {
    Path data = dir.resolve("data");
    start(data).close();
    Path key;
    try (Stream<Path> keys = Files.list(data.resolve("keys"))) {
      key = keys.findFirst().orElseThrow();
    }
    Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
    Exception e = assertThrows(PrivateDataDirectory.ExposedException.class, () -> start(data));
    assertTrue(e.getMessage().startsWith(key + " has mode rw-r--r--"), e.getMessage());
  }

  @Test
  void aJobStoreDirectoryOthersMayReadIsRefused() throws Exception {
    Path data = dir.resolve("data");
    start(data).close();
    Files.setPosixFilePermissions(
        data.resolve("jobstore"), PosixFilePermissions.fromString("rwxr-x---"));
    Exception e = assertThrows(PrivateDataDirectory.ExposedException.class, () -> start(data));
    assertTrue(e.getMessage().contains("jobstore has mode rwxr-x---"), e.getMessage());
  }

  @Test
  void aFileAnotherAccountOwnsInTheKeysDirectoryIsRefused() throws Exception {
    Path data = dir.resolve("data");
    start(data).close();
    Path planted = Files.writeString(data.resolve("keys").resolve("planted.pem"), "x");
    Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-------"));
    Files.setAttribute(planted, "unix:uid", 4242);
    Exception e = assertThrows(PrivateDataDirectory.ExposedException.class, () -> start(data));
    assertTrue(e.getMessage().contains("planted.pem is owned by uid 4242"), e.getMessage());
  }

  @Test
  void theH2FilesTheDatabaseCreatesWithTheUmaskAreMadeOwnerOnly() throws Exception {
    Path data = dir.resolve("data");
    start(data).close();
    Path store = data.resolve("jobstore/gantry.mv.db");
    Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rw-r--r--"));
    start(data).close(); // its directory kept it private, so it is tightened, not refused
    assertEquals("rw-------", mode(store));
  }
}
