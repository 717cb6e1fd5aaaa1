package io.gantry.staging.internal.sql;

import io.gantry.staging.DataSourceSpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keys that tell credentials apart without holding them: URL, user and a keyed digest (HMAC-SHA-256
 * under a random key that lives only in this object) of the password. A map keyed so (a connection
 * pool, a remembered successful login) never hands what one credential opened to a job that brought
 * another, so a wrong password always meets the database's login check; the digest cannot be tested
 * offline against guesses, and the map holds no password in clear.
 */
public final class CredentialKeys {
  private final SecretKeySpec digestKey;

  public CredentialKeys() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    this.digestKey = new SecretKeySpec(key, "HmacSHA256");
    Arrays.fill(key, (byte) 0);
  }

  /** The key of {@code spec}'s URL, user and password. */
  public String of(DataSourceSpec spec) {
    char[] password = spec.password().reveal();
    byte[] bytes = new String(password).getBytes(StandardCharsets.UTF_8);
    Arrays.fill(password, '\0');
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(digestKey);
      return spec.jdbcUrl()
          + "\u0000"
          + spec.user()
          + "\u0000"
          + HexFormat.of().formatHex(mac.doFinal(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }
}
