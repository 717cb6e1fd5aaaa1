package io.gantry.server.internal.sshca;

import io.gantry.server.internal.datadirectory.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The server's OpenSSH key revocation list ({@code data.dir/keys/revoked-keys.krl}, the format of
 * OpenSSH's PROTOCOL.krl), which sshd reads at each login with {@code RevokedKeys}: the
 * certificates of a removed user's jobs are revoked by their key id ({@link
 * JobCertificates#keyId}), so a copy of one no longer logs in even while it is valid. OpenSSH's
 * {@code ssh-keygen -k} writes it, from an argument array, into a copy that then replaces the list
 * at once: sshd never reads half a list.
 *
 * <p>Only job certificates are revoked, by id: a job id is never reused, so its certificates stay
 * revoked for good without cutting off anyone else. The readers' ids ({@code gantry reader account
 * ACCOUNT}) name an OS account, not a user, and are not revoked.
 */
public final class RevokedCertificates {
  /** The list's file name in the key directory. */
  public static final String FILE = "revoked-keys.krl";

  /** Key ids ssh-keygen's specification takes as one line: no line breaks. */
  private static final Pattern KEY_ID = Pattern.compile("[\\x20-\\x7e]{1,256}");

  private static final long TIMEOUT_SECONDS = 30;

  private final Path keys;

  /**
   * @param keys the server's key directory, holding the CA's public key ({@code ssh-user-ca.pub})
   */
  public RevokedCertificates(Path keys) {
    this.keys = keys;
  }

  /** The list sshd's {@code RevokedKeys} names (or the operator copies to the hosts). */
  public Path file() {
    return keys.resolve(FILE);
  }

  /** Writes an empty list when there is none: sshd refuses every key when its list is missing. */
  public synchronized void ensureExists() throws IOException {
    if (!Files.exists(file())) {
      revoke(List.of());
    }
  }

  /** Adds every certificate of jobs {@code jobIds} for {@code account} to the list. */
  public void revokeJobs(String account, Collection<String> jobIds) throws IOException {
    revoke(jobIds.stream().map(id -> JobCertificates.keyId(id, account)).toList());
  }

  private synchronized void revoke(List<String> keyIds) throws IOException {
    if (!Files.exists(keys.resolve(UserCertificateAuthority.PUBLIC_FILE))) {
      return; // no CA yet: it has issued nothing to revoke
    }
    StringBuilder specification = new StringBuilder();
    for (String id : keyIds) {
      if (!KEY_ID.matcher(id).matches()) {
        throw new IllegalArgumentException("not a certificate key id: " + id);
      }
      specification.append("id: ").append(id).append('\n');
    }
    Path spec = keys.resolve(FILE + ".spec");
    Path next = keys.resolve(FILE + ".next");
    try {
      Files.deleteIfExists(spec);
      OwnerOnlyFiles.write(spec, specification.toString().getBytes(StandardCharsets.US_ASCII));
      Files.deleteIfExists(next);
      List<String> argv = new ArrayList<>(List.of("ssh-keygen", "-k"));
      if (Files.exists(file())) {
        Files.copy(file(), next);
        argv.add("-u");
      }
      argv.addAll(
          List.of(
              "-f",
              next.toString(),
              "-s",
              keys.resolve(UserCertificateAuthority.PUBLIC_FILE).toString(),
              spec.toString()));
      run(argv);
      // public: it names revoked certificates only; sshd (root) and the operator read it
      Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rw-r--r--"));
      Files.move(next, file(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(spec);
      Files.deleteIfExists(next);
    }
  }

  private static void run(List<String> argv) throws IOException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    try {
      byte[] out = p.getInputStream().readNBytes(16 * 1024);
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("ssh-keygen -k did not end within " + TIMEOUT_SECONDS + " s");
      }
      if (p.exitValue() != 0) {
        throw new IOException(
            "ssh-keygen -k could not write the key revocation list (exit "
                + p.exitValue()
                + "): "
                + new String(out, StandardCharsets.UTF_8).strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing the key revocation list", e);
    }
  }
}
