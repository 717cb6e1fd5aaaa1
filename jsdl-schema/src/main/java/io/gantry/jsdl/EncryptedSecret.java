package io.gantry.jsdl;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * The textual form of a password encrypted with the server's public key, bound to the Gantry user
 * who may use it and the one destination it may be sent to: {@code
 * ENC(RSA-OAEP-256-v2:<user>:<base64url destination>:<base64 ciphertext>)}.
 *
 * <ol>
 *   <li>The cipher is RSA-OAEP with SHA-256 (MGF1-SHA-256). Its label (the OAEP "P" parameter) is
 *       {@code "gantry-enc-v2" NUL user NUL destination} in UTF-8, so a value decrypts only when
 *       the server supplies the same user (the job's owner) and destination (the job's JDBC URL, or
 *       RemoteUserId@RemoteHostName:RemotePort): altering a byte of the label or of the ciphertext
 *       makes decryption fail.
 *   <li>User and destination are also carried in clear, so that a mismatch is explained in words
 *       ("encrypted for user bob, not alice") before any decryption is tried. They are hints only:
 *       editing them changes nothing, because the label is what decides. The destination is
 *       base64url-encoded because JDBC URLs hold ':', ')' and '&amp;'.
 *   <li>The old form {@code ENC(RSA-OAEP-256:...)} bound nothing, so a value copied out of
 *       someone's job decrypted for anyone; it is refused with a message saying how to re-encrypt.
 * </ol>
 *
 * Only keys of 3072 bits and more are accepted, which fixes the ciphertext lengths below. The
 * parser checks the form only: whether the key matches is known only to the server.
 */
public final class EncryptedSecret {
  public static final String SCHEME = "RSA-OAEP-256-v2";
  public static final String PREFIX = "ENC(" + SCHEME + ":";
  public static final String SUFFIX = ")";

  /** The unbound form of earlier versions, recognised only to refuse it with advice. */
  static final String OLD_PREFIX = "ENC(RSA-OAEP-256:";

  /** What a job definition read by someone other than the owner shows in place of a password. */
  public static final String REDACTED = "REDACTED";

  /** Modulus lengths in bytes of the accepted RSA keys: 3072, 4096, 6144 and 8192 bits. */
  public static final Set<Integer> CIPHERTEXT_LENGTHS = Set.of(384, 512, 768, 1024);

  private static final String TRANSFORMATION = "RSA/ECB/OAEPPadding";
  private static final byte[] LABEL_CONTEXT = "gantry-enc-v2".getBytes(StandardCharsets.US_ASCII);
  private static final Base64.Encoder DESTINATION_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private EncryptedSecret() {}

  /**
   * A server's password key from its PEM form ("BEGIN PUBLIC KEY", X.509 SubjectPublicKeyInfo), as
   * getServerInfo publishes it. IllegalArgumentException when it is not an RSA public key.
   */
  public static PublicKey publicKeyFromPem(String pem) {
    try {
      String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
      return KeyFactory.getInstance("RSA")
          .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an RSA public key in PEM form");
    }
  }

  /**
   * "SHA256:" and the colon-separated hex SHA-256 of the encoded key: how server and clients name a
   * password key, so a user can compare the two out of band.
   */
  public static String fingerprint(PublicKey key) {
    try {
      return "SHA256:"
          + HexFormat.ofDelimiter(":")
              .formatHex(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }

  /**
   * Encrypts a secret with a server's public key, bound to {@code binding}, into the textual form.
   * The secret is encoded as UTF-8; the caller clears its array afterwards.
   */
  public static String encrypt(PublicKey serverKey, char[] secret, SecretBinding binding) {
    ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(secret));
    byte[] plain = new byte[encoded.remaining()];
    encoded.get(plain);
    if (encoded.hasArray()) {
      // the whole backing array is wiped, whatever part of it the buffer covers
      @SuppressWarnings("ByteBufferBackingArray")
      byte[] backing = encoded.array();
      Arrays.fill(backing, (byte) 0);
    }
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION);
      cipher.init(Cipher.ENCRYPT_MODE, serverKey, oaep(binding));
      return format(binding, cipher.doFinal(plain));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot encrypt with this key: " + e.getMessage(), e);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  /**
   * Decrypts a value for the use {@code expected} describes (the job's owner and destination).
   * Throws IllegalArgumentException, without any detail of the ciphertext, when the value is
   * malformed or in the old form, was bound to another user or destination, was made with another
   * key, or was altered.
   */
  public static char[] decrypt(PrivateKey serverKey, String value, SecretBinding expected) {
    Parsed parsed = parse(value);
    mismatch(parsed.binding(), expected)
        .ifPresent(
            problem -> {
              throw new IllegalArgumentException(problem);
            });
    byte[] plain = null;
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION);
      cipher.init(Cipher.DECRYPT_MODE, serverKey, oaep(expected));
      plain = cipher.doFinal(parsed.ciphertext());
      CharBuffer chars = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(plain));
      char[] secret = new char[chars.remaining()];
      chars.get(secret);
      return secret;
    } catch (GeneralSecurityException | CharacterCodingException e) {
      throw new IllegalArgumentException(
          "does not decrypt with this server's key for user "
              + expected.user()
              + " and destination "
              + expected.destination()
              + " (made for another server, or altered); make a new"
              + " value with `"
              + expected.command()
              + "`");
    } finally {
      if (plain != null) {
        Arrays.fill(plain, (byte) 0);
      }
    }
  }

  /** Why a value bound to {@code actual} may not be used as {@code expected}, in words. */
  public static Optional<String> mismatch(SecretBinding actual, SecretBinding expected) {
    if (!actual.user().equals(expected.user())) {
      return Optional.of(
          "was encrypted for user "
              + actual.user()
              + ", not for "
              + expected.user()
              + " who owns this job; an encrypted password works only in its owner's jobs: "
              + expected.user()
              + " makes their own with `"
              + expected.command()
              + "`");
    }
    if (!actual.destination().equals(expected.destination())) {
      return Optional.of(
          "was encrypted for destination "
              + actual.destination()
              + ", not for "
              + expected.destination()
              + "; an encrypted password is sent only where it was meant to go:"
              + " make one for this destination with `"
              + expected.command()
              + "`");
    }
    return Optional.empty();
  }

  /** A value's binding (as its clear fields say) and ciphertext. */
  @SuppressWarnings("ArrayRecordComponent") // handed to the cipher once; never compared or hashed
  public record Parsed(SecretBinding binding, byte[] ciphertext) {}

  /** Wraps a ciphertext in the textual form; the inverse of {@link #parse(String)}. */
  public static String format(SecretBinding binding, byte[] ciphertext) {
    return PREFIX
        + binding.user()
        + ":"
        + DESTINATION_ENCODER.encodeToString(binding.destination().getBytes(StandardCharsets.UTF_8))
        + ":"
        + Base64.getEncoder().encodeToString(ciphertext)
        + SUFFIX;
  }

  /**
   * The binding and ciphertext of a value in the textual form; IllegalArgumentException says why
   * not.
   */
  public static Parsed parse(String value) {
    String text = value.strip();
    if (text.startsWith(OLD_PREFIX)) {
      throw new IllegalArgumentException(oldFormProblem());
    }
    if (!text.startsWith(PREFIX) || !text.endsWith(SUFFIX)) {
      throw new IllegalArgumentException(
          "is not in the encrypted form " + PREFIX + "USER:DESTINATION:...)");
    }
    String[] fields =
        text.substring(PREFIX.length(), text.length() - SUFFIX.length()).split(":", -1);
    if (fields.length != 3) {
      throw new IllegalArgumentException(
          "has "
              + fields.length
              + " ':'-separated fields inside "
              + PREFIX
              + "...); it needs 3: user, destination and ciphertext");
    }
    SecretBinding binding;
    try {
      binding =
          new SecretBinding(
              fields[0],
              new String(Base64.getUrlDecoder().decode(fields[1]), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "does not carry a valid user and destination inside "
              + PREFIX
              + "...): "
              + e.getMessage());
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(fields[2]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "has a ciphertext that is not valid base64 inside " + PREFIX + "...)");
    }
    if (!CIPHERTEXT_LENGTHS.contains(bytes.length)) {
      throw new IllegalArgumentException(
          "has a ciphertext of "
              + bytes.length
              + " bytes; a value from"
              + " a 3072-bit or 4096-bit key has 384 or 512 bytes");
    }
    return new Parsed(binding, bytes);
  }

  /** Why a value is not a usable encrypted secret, in words for the job's author. */
  public static Optional<String> problem(String value) {
    String text = value.strip();
    if (text.equals(REDACTED)) {
      return Optional.of(
          "holds REDACTED, which a job definition shows in place of a password to anyone but"
              + " the job's owner; encrypt the password with `gantry encrypt-password --for-user USER"
              + " --for-destination DESTINATION` and paste the "
              + PREFIX
              + "...) value it prints");
    }
    if (!text.startsWith("ENC(")) {
      return Optional.of(
          "holds a plain-text password; encrypt it with `gantry encrypt-password --for-user USER"
              + " --for-destination DESTINATION` and paste the "
              + PREFIX
              + "...) value it prints");
    }
    if (text.startsWith(OLD_PREFIX)) {
      return Optional.of("value " + oldFormProblem());
    }
    try {
      parse(text);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(
          "value "
              + e.getMessage()
              + "; make a new one with `gantry encrypt-password --for-user USER"
              + " --for-destination DESTINATION`");
    }
  }

  private static String oldFormProblem() {
    return "is in the old form ENC(RSA-OAEP-256:...), which is not bound to a user and a destination and is no"
        + " longer accepted; encrypt the password again with `gantry encrypt-password --for-user USER"
        + " --for-destination DESTINATION` (or type it into the wizard again)";
  }

  private static OAEPParameterSpec oaep(SecretBinding binding) {
    byte[] user = binding.user().getBytes(StandardCharsets.UTF_8);
    byte[] destination = binding.destination().getBytes(StandardCharsets.UTF_8);
    ByteBuffer label =
        ByteBuffer.allocate(LABEL_CONTEXT.length + 1 + user.length + 1 + destination.length);
    label.put(LABEL_CONTEXT).put((byte) 0).put(user).put((byte) 0).put(destination);
    return new OAEPParameterSpec(
        "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, new PSource.PSpecified(label.array()));
  }
}
