package io.gantry.server.internal.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted, slow password hashes with the JDK's PBKDF2-HMAC-SHA256: 16 random bytes of salt and
 * 210,000 iterations (OWASP's figure for this function in 2023). The value carries its own
 * algorithm, iterations and salt ({@code pbkdf2-sha256$210000$SALT$HASH}), so raising the iteration
 * count later leaves existing hashes verifiable.
 */
public final class PasswordHasher {
  public static final int ITERATIONS = 210_000;
  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final String PREFIX = "pbkdf2-sha256";
  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 256;
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * A hash no password matches, verified for unknown user names so that a failed login takes as
   * long whether or not the user exists.
   */
  private static final String DUMMY =
      new PasswordHasher().hash("no user has this password".toCharArray());

  public String hash(char[] password) {
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    byte[] hash = derive(password, salt, ITERATIONS);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return PREFIX
        + "$"
        + ITERATIONS
        + "$"
        + b64.encodeToString(salt)
        + "$"
        + b64.encodeToString(hash);
  }

  /** Whether {@code password} matches {@code stored}; compares in constant time. */
  public boolean verify(char[] password, String stored) {
    String[] parts = stored.split("\\$");
    if (parts.length != 4 || !parts[0].equals(PREFIX)) {
      return false;
    }
    Base64.Decoder b64 = Base64.getDecoder();
    byte[] expected = b64.decode(parts[3]);
    byte[] actual = derive(password, b64.decode(parts[2]), Integer.parseInt(parts[1]));
    return MessageDigest.isEqual(expected, actual);
  }

  /** Spends the time of one verification and returns false: for user names that do not exist. */
  public boolean verifyNobody(char[] password) {
    verify(password, DUMMY);
    return false;
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(ALGORITHM + " is not available in this JDK", e);
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
