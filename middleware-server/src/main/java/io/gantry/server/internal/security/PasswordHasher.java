package io.gantry.server.internal.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted, slow password hashes with the JDK's PBKDF2: HMAC-SHA-512, 16 random bytes of salt and
 * 210,000 iterations, the work factor the OWASP Password Storage Cheat Sheet gives for this
 * function (revised December 2022; PBKDF2-HMAC-SHA-256 needs 600,000 for the same defence, about
 * 2.2 times this one's cost here, where an iteration of SHA-512 costs 1.3 times one of SHA-256).
 * The value carries its own algorithm, iterations and salt ({@code
 * pbkdf2-sha512$210000$SALT$HASH}), so hashes made before a change stay verifiable.
 *
 * <p>Hashes of the earlier form ({@code pbkdf2-sha256$210000$...}, below OWASP's figure) still
 * verify; {@link #isCurrent} tells the caller to replace one by a current hash at the user's next
 * successful login, the only moment the server holds the password.
 */
public final class PasswordHasher {
  public static final int ITERATIONS = 210_000;
  private static final Algorithm CURRENT = Algorithm.SHA512;

  /**
   * The most iterations a stored hash may ask for: a hash is read from the job store, and one with
   * a billion iterations would hold a request thread for minutes on every attempt to log in.
   */
  private static final int MAX_ITERATIONS = 10_000_000;

  private static final int SALT_BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The forms this class can verify: the prefix a stored hash starts with, and its JDK name. */
  private enum Algorithm {
    SHA256("pbkdf2-sha256", "PBKDF2WithHmacSHA256", 256),
    // One block of the PRF's output (512 bits): asking PBKDF2 for more than one block would make
    // the server compute two while an attacker checks a guess against the first alone.
    SHA512("pbkdf2-sha512", "PBKDF2WithHmacSHA512", 512);

    final String prefix;
    final String jdkName;
    final int bits;

    Algorithm(String prefix, String jdkName, int bits) {
      this.prefix = prefix;
      this.jdkName = jdkName;
      this.bits = bits;
    }

    static Algorithm ofPrefix(String prefix) {
      for (Algorithm a : values()) {
        if (a.prefix.equals(prefix)) {
          return a;
        }
      }
      return null;
    }
  }

  /**
   * A hash no password matches, verified for unknown user names so that a failed login takes as
   * long whether or not the user exists: of the current form, with random salt and random hash
   * bytes drawn once (not derived from any password, so finding one that matches is finding a
   * PBKDF2 preimage). A constant, not a hash computed when the class loads: that cost every server
   * start and every {@code user add} a full PBKDF2 computation of its own.
   */
  private static final String DUMMY =
      "pbkdf2-sha512$210000$pQdqlg5quJUSYfLFlU9iBw$C7R4xRj9dTLULrKsSLxA/GpYQ2Vj89K0tFmYhn/N9MUW9F4iJ"
          + "slhjwTJbkPniu9HnjafZrPAY/OLVgIsu6NfVQ";

  public String hash(char[] password) {
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    byte[] hash = derive(CURRENT, password, salt, ITERATIONS);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return CURRENT.prefix
        + "$"
        + ITERATIONS
        + "$"
        + b64.encodeToString(salt)
        + "$"
        + b64.encodeToString(hash);
  }

  /**
   * Whether {@code password} matches {@code stored}; compares in constant time. A stored value of
   * another or a damaged form matches nothing.
   */
  public boolean verify(char[] password, String stored) {
    Parsed parsed = Parsed.of(stored);
    if (parsed == null) {
      return false;
    }
    byte[] actual = derive(parsed.algorithm, password, parsed.salt, parsed.iterations);
    return MessageDigest.isEqual(parsed.hash, actual);
  }

  /**
   * Whether {@code stored} is of the current algorithm with at least the current iterations; a hash
   * that is not should be replaced at the next successful login.
   */
  public boolean isCurrent(String stored) {
    Parsed parsed = Parsed.of(stored);
    return parsed != null && parsed.algorithm == CURRENT && parsed.iterations >= ITERATIONS;
  }

  /** Spends the time of one verification and returns false: for user names that do not exist. */
  public boolean verifyNobody(char[] password) {
    verify(password, DUMMY);
    return false;
  }

  /** The hash {@link #verifyNobody} checks, for the test that it costs what a real one does. */
  static String nobodysHash() {
    return DUMMY;
  }

  /** A stored hash taken apart; null when it is not one of the forms above. */
  private static final class Parsed {
    final Algorithm algorithm;
    final int iterations;
    final byte[] salt;
    final byte[] hash;

    private Parsed(Algorithm algorithm, int iterations, byte[] salt, byte[] hash) {
      this.algorithm = algorithm;
      this.iterations = iterations;
      this.salt = salt;
      this.hash = hash;
    }

    static Parsed of(String stored) {
      if (stored == null) {
        return null;
      }
      String[] parts = stored.split("\\$", -1);
      if (parts.length != 4) {
        return null;
      }
      Algorithm algorithm = Algorithm.ofPrefix(parts[0]);
      if (algorithm == null || !parts[1].matches("[1-9][0-9]{0,8}")) {
        return null;
      }
      int iterations = Integer.parseInt(parts[1]);
      if (iterations > MAX_ITERATIONS) {
        return null;
      }
      try {
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] salt = b64.decode(parts[2]);
        byte[] hash = b64.decode(parts[3]);
        if (salt.length == 0 || hash.length * 8 != algorithm.bits) {
          return null;
        }
        return new Parsed(algorithm, iterations, salt, hash);
      } catch (IllegalArgumentException notBase64) {
        return null;
      }
    }
  }

  private static byte[] derive(Algorithm algorithm, char[] password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, algorithm.bits);
    try {
      return SecretKeyFactory.getInstance(algorithm.jdkName).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm.jdkName + " is not available in this JDK", e);
    } finally {
      spec.clearPassword();
    }
  }

  /** A random password for a generated account: 24 characters, about 143 bits. */
  public static char[] randomPassword() {
    byte[] bytes = new byte[18];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).toCharArray();
  }
}
