package io.gantry.staging;

/**
 * How to log in to a remote host: a password, or a private key (OpenSSH or PEM text, optionally
 * protected by a passphrase). Filled by the server's {@link CredentialResolver}; never printed.
 */
public final class SshCredentials {
  private final Secret password;
  private final byte[] privateKey;
  private final Secret passphrase;
  private final byte[] certificate;

  private SshCredentials(
      Secret password, byte[] privateKey, Secret passphrase, byte[] certificate) {
    this.password = password;
    this.privateKey = privateKey == null ? null : privateKey.clone();
    this.passphrase = passphrase;
    this.certificate = certificate == null ? null : certificate.clone();
  }

  public static SshCredentials password(Secret password) {
    return new SshCredentials(
        java.util.Objects.requireNonNull(password, "password"), null, null, null);
  }

  /**
   * @param passphrase null when the key is not encrypted
   */
  public static SshCredentials privateKey(byte[] privateKey, Secret passphrase) {
    return new SshCredentials(
        null, java.util.Objects.requireNonNull(privateKey, "privateKey"), passphrase, null);
  }

  /**
   * An unencrypted private key with its OpenSSH user certificate (one line, {@code
   * ...-cert-v01@openssh.com ...}), as the server's SSH user CA issues them for a job's own
   * account.
   */
  public static SshCredentials certified(byte[] privateKey, byte[] certificate) {
    return new SshCredentials(
        null,
        java.util.Objects.requireNonNull(privateKey, "privateKey"),
        null,
        java.util.Objects.requireNonNull(certificate, "certificate"));
  }

  /** The user certificate that goes with the private key, or null. */
  public byte[] certificateOrNull() {
    return certificate == null ? null : certificate.clone();
  }

  public Secret passwordOrNull() {
    return password;
  }

  public byte[] privateKeyOrNull() {
    return privateKey == null ? null : privateKey.clone();
  }

  public Secret passphraseOrNull() {
    return passphrase;
  }

  /** "password" or "private key", for error messages. */
  public String method() {
    return password != null ? "password" : certificate != null ? "certificate" : "private key";
  }

  @Override
  public String toString() {
    return "SshCredentials[" + method() + "]";
  }
}
