package io.gantry.server.internal.sshca;

import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;

/**
 * Per job, a fresh key pair and a user certificate from the server's {@link
 * UserCertificateAuthority} for the job's own account, in {@code DIR/JOB/} (owner-only, the
 * server's key directory: never the job directory, never an argument or variable; ssh is handed the
 * file's path). {@code id} is the private key, {@code id-cert.pub} the certificate, which ssh loads
 * with {@code -i id} by itself. Both are destroyed when the job ends ({@link #destroy}).
 *
 * <p>A certificate is valid until the job's wall time from now plus {@code margin} (the job's
 * queueing before its program starts, staging out over the same account): after that, no copy of it
 * opens anything, whatever happened to the key.
 */
public final class JobCertificates {
  /** Job ids as the job store makes them: a plain name, one path element. */
  private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /**
   * The key id of every certificate of job {@code jobId} for {@code account} (the hosts' sshd logs
   * name it; the key revocation list revokes by it).
   */
  public static String keyId(String jobId, String account) {
    return "gantry job " + jobId + " account " + account;
  }

  private final UserCertificateAuthority authority;
  private final Path directory;
  private final Duration margin;
  private final List<String> sourceAddresses;

  /**
   * @param directory where each job's key and certificate live (made owner-only if absent)
   * @param margin added to the job's wall time
   * @param sourceAddresses the certificate's {@code source-address} (CIDR lists); empty for none
   */
  public JobCertificates(
      UserCertificateAuthority authority,
      Path directory,
      Duration margin,
      List<String> sourceAddresses) {
    this.authority = authority;
    this.directory = directory;
    this.margin = margin;
    this.sourceAddresses = List.copyOf(sourceAddresses);
  }

  /** What a job's ssh logs in with: its account and key file ({@code -i}), certificate beside. */
  public record JobCredential(String account, Path identity, Path certificate) {}

  /**
   * Makes job {@code jobId}'s key pair and certificate for {@code account}, valid for {@code
   * wallTime} plus the margin from now; any earlier ones of the job are replaced.
   */
  public JobCredential issue(String jobId, String account, Duration wallTime)
      throws IOException, GeneralSecurityException {
    Path dir = jobDirectory(jobId);
    OwnerOnlyFiles.createDirectories(dir, OwnerOnlyFiles.DIRECTORY_MODE);
    KeyPair pair = UserCertificateAuthority.newKeyPair();
    String keyId = keyId(jobId, account);
    String certificate =
        authority.sign(
            pair.getPublic(),
            account,
            keyId,
            Instant.now().plus(wallTime).plus(margin),
            sourceAddresses);
    ByteArrayOutputStream privateKey = new ByteArrayOutputStream();
    OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(
        pair, "gantry-job-" + jobId, null, privateKey);
    Path identity = dir.resolve("id");
    Path certificateFile = dir.resolve("id-cert.pub");
    OwnerOnlyFiles.write(certificateFile, (certificate + "\n").getBytes(StandardCharsets.US_ASCII));
    byte[] bytes = privateKey.toByteArray();
    try {
      OwnerOnlyFiles.write(identity, bytes);
    } finally {
      java.util.Arrays.fill(bytes, (byte) 0);
    }
    return new JobCredential(account, identity, certificateFile);
  }

  /**
   * A key pair and certificate held in memory only, for a login the server's own SSH client makes
   * (a cluster reached over SSH): the private key in OpenSSH's format, the certificate as its one
   * line. The caller overwrites {@code privateKey} once the login is made.
   */
  public static final class Login {
    private final byte[] privateKey;
    private final byte[] certificate;

    Login(byte[] privateKey, byte[] certificate) {
      this.privateKey = privateKey;
      this.certificate = certificate;
    }

    /** The private key's bytes themselves, for the caller to overwrite once used. */
    public byte[] privateKey() {
      return privateKey;
    }

    public byte[] certificate() {
      return certificate.clone();
    }
  }

  /**
   * A fresh key pair and certificate for {@code account}, valid for {@code validity} plus the
   * margin from now, named {@code keyId} in the hosts' logs; nothing is written anywhere.
   */
  public Login login(String keyId, String account, Duration validity)
      throws IOException, GeneralSecurityException {
    KeyPair pair = UserCertificateAuthority.newKeyPair();
    String certificate =
        authority.sign(
            pair.getPublic(),
            account,
            keyId,
            Instant.now().plus(validity).plus(margin),
            sourceAddresses);
    ByteArrayOutputStream privateKey = new ByteArrayOutputStream();
    OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, keyId, null, privateKey);
    return new Login(
        privateKey.toByteArray(), (certificate + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Destroys job {@code jobId}'s key and certificate, if any: the key's bytes are overwritten
   * before the files go (a copy in a file system's journal or a backup still expires with the
   * certificate).
   */
  public void destroy(String jobId) {
    Path dir = jobDirectory(jobId);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.toList()) {
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          Files.write(file, new byte[(int) Math.min(Files.size(file), 1 << 16)]);
        }
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not destroy job " + jobId + "'s SSH key in " + dir, e);
    }
  }

  /**
   * Destroys the keys of jobs whose certificates have expired ({@code now} past valid-before), or
   * whose certificate is missing or unreadable: what jobs that ended while no server ran (or a
   * server that stopped before destroying them) left behind. A running job's key, its certificate
   * still valid, stays. Returns the job ids swept.
   */
  public List<String> sweepExpired(Instant now) {
    if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    List<String> swept = new java.util.ArrayList<>();
    try (Stream<Path> jobs = Files.list(directory)) {
      for (Path dir : jobs.toList()) {
        String jobId = dir.getFileName().toString();
        if (JOB_ID.matcher(jobId).matches() && expired(dir.resolve("id-cert.pub"), now)) {
          destroy(jobId);
          swept.add(jobId);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not sweep the job keys in " + directory, e);
    }
    return swept;
  }

  private static boolean expired(Path certificate, Instant now) {
    try {
      if (!Files.isRegularFile(certificate, LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
      java.security.PublicKey key =
          org.apache.sshd.common.config.keys.PublicKeyEntry.parsePublicKeyEntry(
                  Files.readString(certificate, StandardCharsets.US_ASCII).strip())
              .resolvePublicKey(null, null, null);
      return !(key instanceof org.apache.sshd.common.config.keys.OpenSshCertificate c)
          || Long.compareUnsigned(c.getValidBefore(), now.getEpochSecond()) <= 0;
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return true; // a certificate that does not read opens nothing either: its key goes
    }
  }

  private Path jobDirectory(String jobId) {
    if (jobId == null || !JOB_ID.matcher(jobId).matches()) {
      throw new IllegalArgumentException("'" + jobId + "' is not a job id");
    }
    return directory.resolve(jobId);
  }
}
