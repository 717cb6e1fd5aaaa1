package io.gantry.server.internal.security;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Logins that passed the slow password check a moment ago, so that a client calling several times a
 * second with HTTP Basic (every SOAP client that polls a job's status) pays PBKDF2 once a minute
 * instead of on every call. Without it each call costs about a quarter of a CPU-second, and one
 * polling client keeps a core busy.
 *
 * <ol>
 *   <li>Only a success is remembered: a wrong password always takes the full check and counts
 *       towards the login throttle, so guessing gets no faster.
 *   <li>What is remembered is an HMAC, under a key drawn at start and never stored, of the name,
 *       the account's stored password hash and the password: no password, nor anything a password
 *       can be checked against offline, stays in memory.
 *   <li>The stored hash is part of the tag, and the account is read from the store on every call: a
 *       changed password or a removed user ends the memory at once.
 *   <li>An entry lives {@link #REMEMBER_FOR} from the check that made it, and at most {@link
 *       #MAX_ENTRIES} are kept (the oldest go first).
 * </ol>
 */
public final class VerifiedLogins {
  /** Long enough for a poll loop, short enough that a password stays the thing that is checked. */
  public static final Duration REMEMBER_FOR = Duration.ofSeconds(60);

  public static final int MAX_ENTRIES = 10_000;

  private final Clock clock;
  private final SecretKeySpec key;
  private final Map<String, Remembered> entries =
      new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** The tag of a checked login and when it stops counting. */
  private static final class Remembered {
    private final byte[] tag;
    private final Instant until;

    Remembered(byte[] tag, Instant until) {
      this.tag = tag;
      this.until = until;
    }
  }

  public VerifiedLogins(Clock clock) {
    this.clock = clock;
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  /** Whether {@code name} logged in with {@code password} against {@code storedHash} just now. */
  public boolean remembers(String name, String storedHash, char[] password) {
    byte[] tag = tag(name, storedHash, password);
    synchronized (entries) {
      Remembered r = entries.get(name);
      if (r == null) {
        return false;
      }
      if (!clock.instant().isBefore(r.until)) {
        entries.remove(name);
        return false;
      }
      return MessageDigest.isEqual(r.tag, tag);
    }
  }

  /**
   * Records that {@code password} passed the full check for {@code name} and {@code storedHash}.
   */
  public void remember(String name, String storedHash, char[] password) {
    Remembered r =
        new Remembered(tag(name, storedHash, password), clock.instant().plus(REMEMBER_FOR));
    synchronized (entries) {
      entries.remove(name); // re-inserted last: the oldest check is the first to go
      entries.put(name, r);
    }
  }

  /** Forgets {@code name}: its next login takes the full check. */
  public void forget(String name) {
    synchronized (entries) {
      entries.remove(name);
    }
  }

  private byte[] tag(String name, String storedHash, char[] password) {
    ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    byte[] bytes = new byte[encoded.remaining()];
    encoded.get(bytes);
    // the encoder's own buffer held the password too: overwrite it before it is dropped
    encoded.clear();
    while (encoded.hasRemaining()) {
      encoded.put((byte) 0);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(name.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      mac.update(storedHash.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return mac.doFinal(bytes);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java runtime", e);
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }
}
