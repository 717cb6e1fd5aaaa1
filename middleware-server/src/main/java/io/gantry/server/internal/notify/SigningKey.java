package io.gantry.server.internal.notify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC-SHA256 key that signs webhooks, kept as text in a file only the server's account reads
 * (notify.signing-key-file), like the server's other keys; made with 256 random bits on first
 * start. The key is never logged, shown or stored elsewhere: receivers are given the file's
 * content.
 */
public final class SigningKey {
  private final SecretKeySpec key;

  private SigningKey(byte[] secret) {
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  /** Reads the key file, making it (mode 0600) when there is none. */
  public static SigningKey loadOrCreate(Path file) throws IOException {
    if (!Files.exists(file)) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      try {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, HexFormat.of().formatHex(random) + "\n");
      } catch (FileAlreadyExistsException raced) {
        // another start made it first: use theirs
      }
    }
    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (text.length() < 32) {
      throw new IOException(
          "the signing key in " + file + " has " + text.length() + " characters, fewer than 32");
    }
    return new SigningKey(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The {@code Gantry-Signature} header's value: {@code t=UNIX_SECONDS,v1=HEX}, where HEX is the
   * HMAC-SHA256 of {@code UNIX_SECONDS + "." + body} (the scheme of Stripe's webhooks), so that a
   * receiver can refuse a replayed request by its age.
   */
  public String signature(long unixSeconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update((unixSeconds + ".").getBytes(StandardCharsets.US_ASCII));
      return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is not available: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "SigningKey[hidden]";
  }
}
