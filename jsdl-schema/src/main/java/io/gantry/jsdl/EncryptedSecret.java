package io.gantry.jsdl;

import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

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

  /** The one cipher and parameter set: RSA-OAEP, SHA-256 digest, MGF1 with SHA-256. */
  private static final String TRANSFORMATION = "RSA/ECB/OAEPPadding";
  private static final OAEPParameterSpec OAEP_SHA256 = new OAEPParameterSpec(
      "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);

  private EncryptedSecret() {}

  /**
   * A server's password key from its PEM form ("BEGIN PUBLIC KEY", X.509 SubjectPublicKeyInfo),
   * as getServerInfo publishes it. IllegalArgumentException when it is not an RSA public key.
   */
  public static PublicKey publicKeyFromPem(String pem) {
    try {
      String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
      return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an RSA public key in PEM form");
    }
  }

  /**
   * "SHA256:" and the colon-separated hex SHA-256 of the encoded key: how server and clients name
   * a password key, so a user can compare the two out of band.
   */
  public static String fingerprint(PublicKey key) {
    try {
      return "SHA256:" + java.util.HexFormat.ofDelimiter(":").formatHex(
          java.security.MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }

  /**
   * Encrypts a secret with a server's public key into the textual form. The secret is encoded
   * as UTF-8; the caller clears its array afterwards.
   */
  public static String encrypt(PublicKey serverKey, char[] secret) {
    java.nio.ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(secret));
    byte[] plain = new byte[encoded.remaining()];
    encoded.get(plain);
    if (encoded.hasArray()) {
      Arrays.fill(encoded.array(), (byte) 0);
    }
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION);
      cipher.init(Cipher.ENCRYPT_MODE, serverKey, OAEP_SHA256);
      return format(cipher.doFinal(plain));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot encrypt with this key: " + e.getMessage(), e);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  /**
   * Decrypts a value in the textual form with the server's private key. Throws
   * IllegalArgumentException, without any detail of the ciphertext, when the value is malformed,
   * was made with another key, or was altered.
   */
  public static char[] decrypt(PrivateKey serverKey, String value) {
    byte[] plain = null;
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION);
      cipher.init(Cipher.DECRYPT_MODE, serverKey, OAEP_SHA256);
      plain = cipher.doFinal(ciphertext(value));
      CharBuffer chars = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(plain));
      char[] secret = new char[chars.remaining()];
      chars.get(secret);
      return secret;
    } catch (GeneralSecurityException | java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException("does not decrypt with this server's key (made for another"
          + " server, or altered); make a new value with `gantry encrypt-password`");
    } finally {
      if (plain != null) {
        Arrays.fill(plain, (byte) 0);
      }
    }
  }


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
