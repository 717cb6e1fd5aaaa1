package io.gantry.server.internal.sshca;

import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.apache.sshd.certificate.OpenSshCertificateBuilder;
import org.apache.sshd.common.config.keys.OpenSshCertificate;
import org.apache.sshd.common.config.keys.PublicKeyEntry;

/**
 * The server's SSH user CA: an ECDSA P-256 key made at first start in the server's key directory,
 * owner-only from its first byte like the server's other keys ({@link OwnerOnlyFiles}); a key file
 * readable by others is refused. Hosts trust it through sshd's {@code TrustedUserCAKeys} ({@link
 * #publicKeyLine()}, printed by {@code gantry-server ssh-ca public-key}).
 *
 * <p>Certificates are signed with Apache MINA SSHD's {@link OpenSshCertificateBuilder} (the format
 * is OpenSSH's PROTOCOL.certkeys). They carry no extensions at all: OpenSSH grants a certificate
 * only the extensions it names, so a job's certificate permits no pty, no agent, port or X11
 * forwarding and no user rc, just commands and the sftp subsystem, which is all mpirun's daemons
 * and staging need.
 */
public final class UserCertificateAuthority {
  private static final String PRIVATE_FILE = "ssh-user-ca.pk8";
  static final String PUBLIC_FILE = "ssh-user-ca.pub";
  private static final String CURVE = "secp256r1";
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private final KeyPair key;
  private final SecureRandom random = new SecureRandom();

  private UserCertificateAuthority(KeyPair key) {
    this.key = key;
  }

  /** Loads the CA key from {@code dir}, creating the directory and the key pair if absent. */
  public static UserCertificateAuthority loadOrCreate(Path dir)
      throws IOException, GeneralSecurityException {
    Path privateFile = dir.resolve(PRIVATE_FILE);
    Path publicFile = dir.resolve(PUBLIC_FILE);
    if (!Files.exists(privateFile)) {
      create(dir, privateFile, publicFile);
    }
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(privateFile);
    if (!OWNER_ONLY.containsAll(mode)) {
      throw new GeneralSecurityException(
          "the SSH user CA key "
              + privateFile
              + " is readable by others ("
              + PosixFilePermissions.toString(mode)
              + "); run: chmod 600 "
              + privateFile);
    }
    PrivateKey privateKey =
        KeyFactory.getInstance("EC")
            .generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(privateFile)));
    PublicKey publicKey = parsePublicKey(Files.readString(publicFile, StandardCharsets.US_ASCII));
    return new UserCertificateAuthority(new KeyPair(publicKey, privateKey));
  }

  private static void create(Path dir, Path privateFile, Path publicFile)
      throws IOException, GeneralSecurityException {
    OwnerOnlyFiles.createDirectories(dir, OwnerOnlyFiles.DIRECTORY_MODE);
    KeyPair pair = newKeyPair();
    // the public key first: the private key's presence means the pair is complete
    OwnerOnlyFiles.write(
        publicFile,
        (line(pair.getPublic(), "gantry-user-ca") + "\n").getBytes(StandardCharsets.US_ASCII));
    OwnerOnlyFiles.write(privateFile, pair.getPrivate().getEncoded());
  }

  /** A fresh ECDSA P-256 key pair (the CA's, or one job's). */
  static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec(CURVE));
    return generator.generateKeyPair();
  }

  /** The CA's public key as one OpenSSH line, for sshd's {@code TrustedUserCAKeys}. */
  public String publicKeyLine() {
    return line(key.getPublic(), "gantry-user-ca");
  }

  /**
   * Signs a user certificate for {@code subject}: principal {@code account}, valid from a minute
   * before now (hosts whose clocks lag a little) until {@code validBefore}, with no extensions and
   * a {@code source-address} critical option where {@code sourceAddresses} is not empty.
   *
   * @param keyId what the hosts' sshd logs name the certificate by (job and user, no secret)
   * @return the certificate as one OpenSSH line ({@code ...-cert-v01@openssh.com ...})
   */
  public String sign(
      PublicKey subject,
      String account,
      String keyId,
      Instant validBefore,
      List<String> sourceAddresses)
      throws GeneralSecurityException {
    OpenSshCertificateBuilder builder =
        OpenSshCertificateBuilder.userCertificate()
            .publicKey(subject)
            .serial(random.nextLong() & Long.MAX_VALUE)
            .id(keyId)
            .principals(List.of(account))
            .validAfter(Instant.now().minusSeconds(60))
            .validBefore(validBefore);
    if (!sourceAddresses.isEmpty()) {
      builder.criticalOption("source-address", String.join(",", sourceAddresses));
    }
    try {
      OpenSshCertificate certificate = builder.sign(key);
      return line(certificate, keyId.replaceAll("\\s", "_"));
    } catch (GeneralSecurityException e) {
      throw e;
    } catch (Exception e) {
      throw new GeneralSecurityException("could not sign an SSH certificate: " + e.getMessage(), e);
    }
  }

  private static String line(PublicKey key, String comment) {
    return PublicKeyEntry.toString(key) + " " + comment;
  }

  private static PublicKey parsePublicKey(String line) throws GeneralSecurityException {
    try {
      return PublicKeyEntry.parsePublicKeyEntry(line.strip()).resolvePublicKey(null, null, null);
    } catch (IOException | IllegalArgumentException e) {
      throw new GeneralSecurityException("the SSH user CA's public key does not parse", e);
    }
  }
}
