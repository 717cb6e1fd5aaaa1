package io.gantry.server.internal.sshca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.internal.sshca.JobCertificates.JobCredential;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's SSH user CA and a job's certificate, read back by OpenSSH's own {@code ssh-keygen}:
 * the CA key is made owner-only and kept across starts, and a job's certificate names exactly the
 * job's account, expires with its wall time plus the margin, grants no extension and carries the
 * configured source addresses; its key is what ssh loads, and is gone once destroyed.
 */
class UserCertificateAuthorityTest {
  @TempDir Path dir;

  @Test
  void theCaKeyIsMadeOwnerOnlyOnceAndAKeyReadableByOthersIsRefused() throws Exception {
    Path keys = dir.resolve("keys");
    UserCertificateAuthority first = UserCertificateAuthority.loadOrCreate(keys);
    assertEquals("rwx------", mode(keys));
    try (var files = Files.list(keys)) {
      for (Path f : files.toList()) {
        assertEquals("rw-------", mode(f), f.toString());
      }
    }
    assertTrue(first.publicKeyLine().startsWith("ecdsa-sha2-nistp256 "), first.publicKeyLine());
    assertEquals(
        first.publicKeyLine(),
        UserCertificateAuthority.loadOrCreate(keys).publicKeyLine(),
        "the next start keeps the CA");

    Files.setPosixFilePermissions(
        keys.resolve("ssh-user-ca.pk8"), PosixFilePermissions.fromString("rw-r--r--"));
    GeneralSecurityException e =
        assertThrows(
            GeneralSecurityException.class, () -> UserCertificateAuthority.loadOrCreate(keys));
    assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
  }

  @Test
  void theCommandPrintsTheLineForTrustedUserCaKeysAndMakesTheCaAsTheServersStartWould()
      throws Exception {
    Path data = dir.resolve("data");
    java.io.StringWriter out = new java.io.StringWriter();
    picocli.CommandLine command =
        new picocli.CommandLine(new io.gantry.server.GantryServerCommand());
    command.setOut(new java.io.PrintWriter(out));
    int code = command.execute("ssh-ca", "public-key", "--data-dir", data.toString());
    assertEquals(0, code, out.toString());
    String line = out.toString().strip();
    assertEquals(UserCertificateAuthority.loadOrCreate(data.resolve("keys")).publicKeyLine(), line);
    // what sshd reads from TrustedUserCAKeys: ssh-keygen takes it as a public key
    Path file = Files.writeString(dir.resolve("trusted-user-ca.pub"), line + "\n");
    assertTrue(keygen("-l", "-f", file.toString()).contains("(ECDSA)"));
  }

  @Test
  void aJobsCertificateNamesItsAccountExpiresWithItsWallTimeAndGrantsNothingMore()
      throws Exception {
    UserCertificateAuthority ca = UserCertificateAuthority.loadOrCreate(dir.resolve("keys"));
    Path caPublic = Files.writeString(dir.resolve("ca.pub"), ca.publicKeyLine() + "\n");
    JobCertificates certificates =
        new JobCertificates(
            ca, dir.resolve("keys/job-ssh"), Duration.ofMinutes(15), List.of("10.0.0.0/8", "::1"));
    JobCredential credential =
        certificates.issue("job-42", "gantry-test-alice", Duration.ofMinutes(30));

    assertEquals(dir.resolve("keys/job-ssh/job-42/id"), credential.identity());
    assertEquals("rw-------", mode(credential.identity()));
    assertEquals("rwx------", mode(credential.identity().getParent()));
    assertEquals(
        credential.identity().resolveSibling("id-cert.pub"),
        credential.certificate(),
        "ssh -i id loads id-cert.pub by itself");

    String listing = keygen("-L", "-f", credential.certificate().toString());
    assertTrue(listing.contains("user certificate"), listing);
    assertTrue(
        listing.contains("Key ID: \"gantry job job-42 account gantry-test-alice\""), listing);
    assertEquals(
        List.of("gantry-test-alice"), section(listing, "Principals"), "exactly one principal");
    assertEquals(
        List.of("source-address 10.0.0.0/8,::1"), section(listing, "Critical Options"), listing);
    assertTrue(
        listing.contains("Extensions: (none)"),
        "no pty, agent, port or X11 forwarding, no user rc: " + listing);
    String caFingerprint = keygen("-l", "-f", caPublic.toString()).split(" ")[1];
    assertTrue(listing.contains("Signing CA: ECDSA " + caFingerprint), listing);

    Matcher valid = Pattern.compile("Valid: from (\\S+) to (\\S+)").matcher(listing);
    assertTrue(valid.find(), listing);
    LocalDateTime until = LocalDateTime.parse(valid.group(2));
    LocalDateTime expected =
        LocalDateTime.now(ZoneId.systemDefault()).plusMinutes(45).truncatedTo(ChronoUnit.SECONDS);
    assertTrue(
        Math.abs(ChronoUnit.SECONDS.between(expected, until)) < 120,
        "valid for the wall time plus the margin: until " + until + ", expected about " + expected);

    // the certificate certifies the key in the key file
    String keyFingerprint = keygen("-l", "-f", credential.identity().toString()).split(" ")[1];
    assertTrue(
        listing.contains("Public key: ECDSA-CERT " + keyFingerprint),
        "the certificate's key is the job's key " + keyFingerprint + ": " + listing);

    certificates.destroy("job-42");
    assertFalse(Files.exists(credential.identity().getParent()), "destroyed with the job");
    assertThrows(
        IllegalArgumentException.class,
        () -> certificates.issue("../escape", "gantry-test-alice", Duration.ofMinutes(1)));
  }

  /**
   * What jobs that ended while no server ran leave: a key whose certificate expired (or is gone) is
   * destroyed at the next start; a running job's, still valid, stays. A cluster login's key and
   * certificate are made in memory and read by OpenSSH as a key and its certificate.
   */
  @Test
  void expiredJobKeysAreSweptAndALoginKeyIsNeverAFile() throws Exception {
    UserCertificateAuthority ca = UserCertificateAuthority.loadOrCreate(dir.resolve("sweep-keys"));
    Path keys = dir.resolve("sweep-keys/job-ssh");
    JobCertificates certificates = new JobCertificates(ca, keys, Duration.ZERO, List.of());
    certificates.issue("ended", "gantry-test-alice", Duration.ofSeconds(-30));
    certificates.issue("running", "gantry-test-bob", Duration.ofMinutes(30));
    Files.delete(
        certificates.issue("no-cert", "gantry-test-bob", Duration.ofMinutes(30)).certificate());

    assertEquals(
        List.of("ended", "no-cert"),
        certificates.sweepExpired(java.time.Instant.now()).stream().sorted().toList());
    assertFalse(Files.exists(keys.resolve("ended")));
    assertFalse(Files.exists(keys.resolve("no-cert")));
    assertTrue(Files.exists(keys.resolve("running/id")), "a running job's key stays");

    JobCertificates.Login login =
        certificates.login(
            "gantry job j account gantry-test-bob", "gantry-test-bob", Duration.ZERO);
    try (var files = Files.list(keys)) {
      assertEquals(List.of(keys.resolve("running")), files.toList(), "nothing written for it");
    }
    Path copy = Files.createDirectories(dir.resolve("login-copy"));
    Files.write(copy.resolve("id"), login.privateKey());
    Files.write(copy.resolve("id-cert.pub"), login.certificate());
    Files.setPosixFilePermissions(copy.resolve("id"), PosixFilePermissions.fromString("rw-------"));
    String listing = keygen("-L", "-f", copy.resolve("id-cert.pub").toString());
    assertEquals(List.of("gantry-test-bob"), section(listing, "Principals"), listing);
    String keyFingerprint = keygen("-l", "-f", copy.resolve("id").toString()).split(" ")[1];
    assertTrue(listing.contains("Public key: ECDSA-CERT " + keyFingerprint), listing);
  }

  private static List<String> section(String listing, String name) {
    List<String> lines = listing.lines().toList();
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith(name + ":")) {
        start = i + 1;
      }
    }
    assertTrue(start > 0, name + " in " + listing);
    return lines.subList(start, lines.size()).stream()
        .takeWhile(l -> l.startsWith("                "))
        .map(String::strip)
        .toList();
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static String keygen(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("ssh-keygen"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }
}
