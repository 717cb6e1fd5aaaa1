package io.gantry.staging;

/**
 * How to log in to a remote host: a password, or a private key (OpenSSH or PEM text, optionally
 * protected by a passphrase). Filled by the server's {@link CredentialResolver}; never printed.
 */
public final class SshCredentials {
  private final Secret password;
  private final byte[] privateKey;
  private final Secret passphrase;

  private SshCredentials(Secret password, byte[] privateKey, Secret passphrase) {
    this.password = password;
    this.privateKey = privateKey == null ? null : privateKey.clone();
    this.passphrase = passphrase;
  }

  public static SshCredentials password(Secret password) {
    return new SshCredentials(java.util.Objects.requireNonNull(password, "password"), null, null);
  }

  /**
   * @param passphrase null when the key is not encrypted
   */
  public static SshCredentials privateKey(byte[] privateKey, Secret passphrase) {
    return new SshCredentials(
        null, java.util.Objects.requireNonNull(privateKey, "privateKey"), passphrase);
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
    return password != null ? "password" : "private key";
  }

  @Override
  public String toString() {
    return "SshCredentials[" + method() + "]";
  }
}
