package io.gantry.server.internal.security;

import io.gantry.jsdl.EncryptedSecret;
import io.gantry.jsdl.SecretBinding;
import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Set;

/**
 * The server's RSA key pair for passwords in job descriptions (section 3.3 of "Middleware and
 * Performance Issues for Financial Risk Analytics on Blue Gene/L": "a password generator ... using
 * common public key encryption"). Clients encrypt with the public key ({@code gantry
 * encrypt-password}, or any RSA-OAEP-SHA-256 implementation); only this server can decrypt, and it
 * does so at the moment of use, only for the user and destination each value is bound to ({@link
 * SecretBinding}).
 *
 * <p>Created at first start: 3072 bits, the private key in a file only the server's user may read,
 * in a directory only it may enter. A key file readable by others is refused at start.
 */
public final class PasswordKeyPair {
  public static final int KEY_BITS = 3072;
  private static final String PRIVATE_FILE = "password-key.pk8";
  private static final String PUBLIC_FILE = "password-key.pub.pem";
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private final PrivateKey privateKey;
  private final PublicKey publicKey;

  private PasswordKeyPair(PrivateKey privateKey, PublicKey publicKey) {
    this.privateKey = privateKey;
    this.publicKey = publicKey;
  }

  /** Loads the key pair from {@code dir}, creating both the directory and the keys if absent. */
  public static PasswordKeyPair loadOrCreate(Path dir)
      throws IOException, GeneralSecurityException {
    Path privateFile = dir.resolve(PRIVATE_FILE);
    Path publicFile = dir.resolve(PUBLIC_FILE);
    if (!Files.exists(privateFile)) {
      create(dir, privateFile, publicFile);
    }
    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(privateFile);
    if (!OWNER_ONLY.containsAll(permissions)) {
      throw new GeneralSecurityException(
          "the password key "
              + privateFile
              + " is readable by others ("
              + PosixFilePermissions.toString(permissions)
              + "); run: chmod 600 "
              + privateFile);
    }
    KeyFactory rsa = KeyFactory.getInstance("RSA");
    PrivateKey privateKey =
        rsa.generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(privateFile)));
    PublicKey publicKey = EncryptedSecret.publicKeyFromPem(Files.readString(publicFile));
    return new PasswordKeyPair(privateKey, publicKey);
  }

  private static void create(Path dir, Path privateFile, Path publicFile)
      throws IOException, GeneralSecurityException {
    OwnerOnlyFiles.createDirectories(dir, OwnerOnlyFiles.DIRECTORY_MODE);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(KEY_BITS);
    java.security.KeyPair pair = generator.generateKeyPair();
    // both owner-only from their first byte (the data directory's check refuses anything wider
    // in keys/), the public key first: the private key's presence means the pair is complete
    OwnerOnlyFiles.write(publicFile, toPem(pair.getPublic()).getBytes(StandardCharsets.US_ASCII));
    OwnerOnlyFiles.write(privateFile, pair.getPrivate().getEncoded());
  }

  /** The public key in PEM ("BEGIN PUBLIC KEY", X.509 SubjectPublicKeyInfo). */
  public String publicKeyPem() {
    return toPem(publicKey);
  }

  public PublicKey publicKey() {
    return publicKey;
  }

  public int bits() {
    return ((RSAPublicKey) publicKey).getModulus().bitLength();
  }

  /** "SHA256:" and the hex SHA-256 of the encoded public key, for users to compare out of band. */
  public String fingerprint() {
    return EncryptedSecret.fingerprint(publicKey);
  }

  /**
   * Decrypts a value of the form {@code ENC(RSA-OAEP-256-v2:...)} for the user and destination of
   * {@code use}; the caller clears the array when done. IllegalArgumentException says why a value
   * cannot be used there, never what it held.
   */
  public char[] decrypt(String value, SecretBinding use) {
    return EncryptedSecret.decrypt(privateKey, value, use);
  }

  /**
   * Why {@code value} would not decrypt for {@code use}, or null if it would; the secret is wiped
   * at once.
   */
  public String problem(String value, SecretBinding use) {
    try {
      java.util.Arrays.fill(decrypt(value, use), '\0');
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  private static String toPem(PublicKey key) {
    return "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded())
        + "\n-----END PUBLIC KEY-----\n";
  }

  /** The DER bytes of a "BEGIN PUBLIC KEY" PEM block. */
  public static byte[] fromPem(String pem) {
    return EncryptedSecret.publicKeyFromPem(pem).getEncoded();
  }
}
