package io.gantry.staging;

import java.util.Arrays;

/**
 * A password or passphrase held as characters, never printed: {@link #toString()} is redacted so a
 * secret that slips into a log line or an exception message shows as {@code ***}.
 */
public final class Secret {
  private final char[] value;

  private Secret(char[] value) {
    this.value = value.clone();
  }

  public static Secret of(char[] value) {
    return new Secret(value);
  }

  public static Secret of(String value) {
    return new Secret(value.toCharArray());
  }

  /** A copy of the characters; the caller should wipe it with {@link Arrays#fill} when done. */
  public char[] reveal() {
    return value.clone();
  }

  public boolean isEmpty() {
    return value.length == 0;
  }

  @Override
  public String toString() {
    return "***";
  }
}
