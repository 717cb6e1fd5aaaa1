package io.gantry.server.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;

class PasswordHasherTest {
  private final PasswordHasher hasher = new PasswordHasher();

  /**
   * A hash of the earlier form (PBKDF2-HMAC-SHA-256, 210,000 iterations) made here with the JDK, as
   * servers before the change stored them.
   */
  static String earlierFormHash(String password) throws Exception {
    byte[] salt = "sixteen byte slt".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] hash =
        SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
            .generateSecret(new PBEKeySpec(password.toCharArray(), salt, 210_000, 256))
            .getEncoded();
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return "pbkdf2-sha256$210000$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
  }

  @Test
  void theRightPasswordMatchesAndAWrongOneDoesNot() {
    String stored = hasher.hash("correct horse battery".toCharArray());
    assertTrue(hasher.verify("correct horse battery".toCharArray(), stored));
    assertFalse(hasher.verify("correct horse batterY".toCharArray(), stored));
    assertFalse(hasher.verify("".toCharArray(), stored));
  }

  @Test
  void theSamePasswordHashesDifferentlyEachTimeAndNeverAppearsInTheHash() {
    String a = hasher.hash("correct horse battery".toCharArray());
    String b = hasher.hash("correct horse battery".toCharArray());
    assertNotEquals(a, b, "a random salt each time");
    assertFalse(a.contains("correct"));
  }

  /** OWASP's Password Storage Cheat Sheet: PBKDF2-HMAC-SHA-512 at 210,000 iterations or more. */
  @Test
  void theHashIsPbkdf2WithHmacSha512AtOwaspsWorkFactorAndNamesThem() {
    String stored = hasher.hash("x".toCharArray());
    String[] parts = stored.split("\\$");
    assertEquals("pbkdf2-sha512", parts[0], stored);
    assertTrue(Integer.parseInt(parts[1]) >= 210_000, stored);
    assertEquals(16, Base64.getDecoder().decode(parts[2]).length, "16 bytes of salt");
    assertEquals(64, Base64.getDecoder().decode(parts[3]).length, "one SHA-512 block, no more");
    assertTrue(hasher.isCurrent(stored));
  }

  /**
   * An unknown user's login must cost what a known user's does, or its time tells which names
   * exist: the hash it checks is a well-formed current one (a damaged one would be refused before
   * any PBKDF2 work), matched by no password tried.
   */
  @Test
  void anUnknownUsersLoginChecksAWellFormedCurrentHashThatNoPasswordMatches() {
    String nobody = PasswordHasher.nobodysHash();
    assertTrue(hasher.isCurrent(nobody), nobody);
    assertFalse(hasher.verify("".toCharArray(), nobody));
    assertFalse(hasher.verify("no user has this password".toCharArray(), nobody));
    // this thread's CPU time, not the clock's: a busy machine may pause the thread at any moment
    java.lang.management.ThreadMXBean cpu =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long t0 = cpu.getCurrentThreadCpuTime();
    assertFalse(hasher.verifyNobody("guess".toCharArray()));
    long nobodyNanos = cpu.getCurrentThreadCpuTime() - t0;
    String real = hasher.hash("x".toCharArray());
    long t1 = cpu.getCurrentThreadCpuTime();
    assertFalse(hasher.verify("guess".toCharArray(), real));
    long realNanos = cpu.getCurrentThreadCpuTime() - t1;
    // the same PBKDF2 work: far more than a refusal of a damaged form, which takes microseconds
    assertTrue(
        nobodyNanos > realNanos / 4,
        "unknown user " + nobodyNanos / 1_000_000 + " ms, known " + realNanos / 1_000_000 + " ms");
  }

  @Test
  void aHashOfTheEarlierFormStillVerifiesButIsNotCurrent() throws Exception {
    String earlier = earlierFormHash("correct horse battery");
    assertTrue(hasher.verify("correct horse battery".toCharArray(), earlier));
    assertFalse(hasher.verify("correct horse batterY".toCharArray(), earlier));
    assertFalse(hasher.isCurrent(earlier), "to be replaced at the next login");
    String fewer = hasher.hash("x".toCharArray()).replace("$210000$", "$100000$");
    assertFalse(hasher.isCurrent(fewer), "fewer iterations than the current figure");
  }

  @Test
  void aHashOfAnotherOrADamagedFormMatchesNothingAndThrowsNothing() {
    String good = hasher.hash("x".toCharArray());
    String[] parts = good.split("\\$");
    String[] damaged = {
      "plain:x",
      "",
      "directory",
      "pbkdf2-md5$210000$" + parts[2] + "$" + parts[3],
      "pbkdf2-sha512$many$" + parts[2] + "$" + parts[3],
      "pbkdf2-sha512$-5$" + parts[2] + "$" + parts[3],
      "pbkdf2-sha512$0$" + parts[2] + "$" + parts[3],
      "pbkdf2-sha512$99999999999$" + parts[2] + "$" + parts[3],
      // a billion iterations would hold a request thread for minutes at each attempt
      "pbkdf2-sha512$1000000000$" + parts[2] + "$" + parts[3],
      "pbkdf2-sha512$210000$$" + parts[3],
      "pbkdf2-sha512$210000$not*base64$" + parts[3],
      "pbkdf2-sha512$210000$" + parts[2] + "$" + parts[3].substring(4),
      good + "$extra",
      "pbkdf2-sha512$210000$" + parts[2],
    };
    for (String stored : damaged) {
      assertFalse(hasher.verify("x".toCharArray(), stored), stored);
      assertFalse(hasher.isCurrent(stored), stored);
    }
    assertTrue(hasher.verify("x".toCharArray(), good));
    assertFalse(hasher.verifyNobody("no user has this password".toCharArray()));
  }
}
