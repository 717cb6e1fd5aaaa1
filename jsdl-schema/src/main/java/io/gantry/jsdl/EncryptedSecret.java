package io.gantry.jsdl;

import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * The textual form of a password encrypted with the server's public key:
 * {@code ENC(RSA-OAEP-256:<base64 ciphertext>)}.
 *
 * <p>The ciphertext is RSA-OAEP with SHA-256 (MGF1-SHA-256), so it is exactly as long as the
 * key's modulus; only keys of 3072 bits and more are accepted, which fixes the lengths below.
 * The parser checks the form only: whether the key matches is known only to the server.
 */
public final class EncryptedSecret {
  public static final String PREFIX = "ENC(RSA-OAEP-256:";
  public static final String SUFFIX = ")";

  /** Modulus lengths in bytes of the accepted RSA keys: 3072, 4096, 6144 and 8192 bits. */
  public static final Set<Integer> CIPHERTEXT_LENGTHS = Set.of(384, 512, 768, 1024);

  private EncryptedSecret() {}

  /** Wraps a ciphertext in the textual form; the inverse of {@link #ciphertext(String)}. */
  public static String format(byte[] ciphertext) {
    return PREFIX + Base64.getEncoder().encodeToString(ciphertext) + SUFFIX;
  }

  /** The ciphertext of a value in the encrypted form; IllegalArgumentException says why not. */
  public static byte[] ciphertext(String value) {
    String text = value.strip();
    if (!text.startsWith(PREFIX) || !text.endsWith(SUFFIX)) {
      throw new IllegalArgumentException("is not in the encrypted form " + PREFIX + "...)");
    }
    String base64 = text.substring(PREFIX.length(), text.length() - SUFFIX.length());
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("is not valid base64 inside " + PREFIX + "...)");
    }
    if (!CIPHERTEXT_LENGTHS.contains(bytes.length)) {
      throw new IllegalArgumentException("decodes to " + bytes.length + " bytes; a value from"
          + " a 3072-bit or 4096-bit key has 384 or 512 bytes");
    }
    return bytes;
  }

  /** Why a value is not a usable encrypted secret, in words for the job's author. */
  public static Optional<String> problem(String value) {
    String text = value.strip();
    if (!text.startsWith("ENC(")) {
      return Optional.of("holds a plain-text password; encrypt it with `gantry encrypt-password`"
          + " and paste the ENC(RSA-OAEP-256:...) value it prints");
    }
    try {
      ciphertext(text);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of("value " + e.getMessage() + "; make a new one with `gantry encrypt-password`");
    }
  }
}
