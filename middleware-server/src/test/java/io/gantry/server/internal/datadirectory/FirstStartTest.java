package io.gantry.server.internal.datadirectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.GantryServer;
import io.gantry.server.config.ServerConfigLoader;
import io.gantry.testing.server.GantryTestServer;
import io.gantry.testing.server.GantryTestServerBuilder;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first start that cannot trip: a port another process holds is named before anything is made,
 * every file the server makes is born owner-only, and a start that failed half-way leaves nothing
 * that the next start refuses.
 */
class FirstStartTest {
  @TempDir Path dir;

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  private GantryTestServerBuilder builder(Path data) {
    // demo: its SSH host writes ssh/known_hosts; TLS: the generated keystore and its password
    return GantryTestServer.builder(dir).dataDir(data).tls(true).demo(20);
  }

  private static GantryServer start(GantryTestServerBuilder builder) throws Exception {
    return GantryServer.start(new ServerConfigLoader().load(null, builder.settingsMap()));
  }

  @Test
  void aBusyPortIsNamedBeforeAnythingIsMadeAndTheNextStartSucceeds() throws Exception {
    Path data = dir.resolve("data");
    int port;
    try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      port = other.getLocalPort();
      GantryTestServerBuilder busy = builder(data).setting("listen.port", Integer.toString(port));
      long began = System.nanoTime();
      BindException e = assertThrows(BindException.class, () -> start(busy));
      long millis = (System.nanoTime() - began) / 1_000_000;
      assertEquals("address already in use: 127.0.0.1:" + port + " (listen.port)", e.getMessage());
      assertFalse(Files.exists(data), "a start refused for its port makes no file");
      // before keys (a 3072-bit RSA pair alone takes longer), stores or sandboxes
      assertTrue(millis < 2_000, "refused after " + millis + " ms");
    }
    try (GantryServer server =
        start(builder(data).setting("listen.port", Integer.toString(port)))) {
      assertEquals(port, server.address().getPort());
    }
  }

  @Test
  void everyFileTheServerMakesIsOwnerOnly() throws Exception {
    Path data = dir.resolve("data");
    try (GantryServer server = start(builder(data))) {
      assertOwnerOnly(data);
      assertTrue(Files.exists(data.resolve("ssh/known_hosts")));
      assertTrue(Files.exists(data.resolve("keys/password-key.pub.pem")));
      assertTrue(Files.exists(data.resolve("tls/keystore.p12")));
    }
  }

  @Test
  void aStartThatFailsHalfWayLeavesNothingTheNextStartRefuses() throws Exception {
    Path data = dir.resolve("data");
    // fails at the check of the jobs' account: after the password key and the demo host's
    // known_hosts were made, before the end of start-up
    GantryTestServerBuilder failing =
        builder(data).setting("jobs.default-os-account", "gantry-no-such-account");
    Exception e = assertThrows(IllegalStateException.class, () -> start(failing));
    assertTrue(e.getMessage().contains("jobs.default-os-account"), e.getMessage());
    assertTrue(Files.exists(data.resolve("keys/password-key.pub.pem")));
    assertTrue(Files.exists(data.resolve("ssh/known_hosts")));
    for (String secret : List.of("keys", "ssh")) {
      try (Stream<Path> files = Files.walk(data.resolve(secret))) {
        for (Path file : files.toList()) {
          assertEquals(
              Files.isDirectory(file) ? "rwx------" : "rw-------", mode(file), file.toString());
        }
      }
    }
    try (GantryServer next = start(builder(data))) {
      assertOwnerOnly(data);
    }
  }

  /** Nothing under the data directory that the group or others may read, write or list. */
  private static void assertOwnerOnly(Path data) throws Exception {
    Map<Path, String> traversable = Map.of(data, "rwx--x--x", data.resolve("jobs"), "rwx--x--x");
    try (Stream<Path> all = Files.walk(data)) {
      for (Path path : all.toList()) {
        if (Files.isSymbolicLink(path)) {
          continue;
        }
        String expected =
            traversable.getOrDefault(path, Files.isDirectory(path) ? "rwx------" : "rw-------");
        String actual = mode(path);
        // an owner-only file may lack the owner's write bit, never more
        assertTrue(
            actual.equals(expected) || actual.substring(3).equals(expected.substring(3)),
            path + " has mode " + actual + ", expected " + expected);
      }
    }
  }
}
