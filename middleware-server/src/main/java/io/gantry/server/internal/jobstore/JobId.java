package io.gantry.server.internal.jobstore;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A job's id: 160 random bits from {@link SecureRandom}, written as 32 characters of lower-case RFC
 * 4648 base32 ({@code a-z}, {@code 2-7}). Unguessable, so knowing one job's id tells nothing about
 * another's; safe unescaped in URLs, file names and XML; case-insensitive file systems cannot
 * confuse two ids; and 20 bytes encode to exactly 32 characters, without padding.
 */
public record JobId(String value) {
  private static final Pattern FORMAT = Pattern.compile("[a-z2-7]{32}");
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
  private static final int RANDOM_BYTES = 20;
  private static final SecureRandom RANDOM = new SecureRandom();

  public JobId {
    Objects.requireNonNull(value, "value");
    if (!FORMAT.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "not a job id (32 characters a-z, 2-7): '" + abbreviate(value) + "'");
    }
  }

  /** A fresh id. */
  public static JobId random() {
    byte[] bytes = new byte[RANDOM_BYTES];
    RANDOM.nextBytes(bytes);
    return new JobId(base32(bytes));
  }

  /** Parses an id a client sent, accepting upper case as RFC 4648 base32 does. */
  public static JobId parse(String text) {
    return new JobId(text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public String toString() {
    return value;
  }

  private static String base32(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length * 8 / 5);
    int buffer = 0;
    int bits = 0;
    for (byte b : bytes) {
      buffer = (buffer << 8) | (b & 0xff);
      bits += 8;
      while (bits >= 5) {
        out.append(ALPHABET[(buffer >>> (bits - 5)) & 31]);
        bits -= 5;
      }
    }
    return out.toString(); // 160 bits is a multiple of 5: nothing is left over
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
