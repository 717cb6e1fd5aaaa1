package io.gantry.server.internal.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.testing.HttpTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a webhook receiver does with a delivery, written from docs/operations.md rather than from
 * the server's code: checks Gantry-Signature with the key file's text, and reads the CloudEvent's
 * members.
 */
final class Receiver {
  private Receiver() {}

  /** Fails unless {@code post} carries the signature docs/operations.md describes. */
  static void assertSigned(HttpTestServer.Post post, Path keyFile) throws Exception {
    String header = post.headers().get("gantry-signature");
    Matcher m = Pattern.compile("t=(\\d+),v1=([0-9a-f]{64})").matcher(header);
    assertEquals(true, m.matches(), header);
    String key = Files.readString(keyFile).strip();
    assertEquals(hmac(key, m.group(1) + "." + post.body()), m.group(2), "signature of " + header);
  }

  private static String hmac(String key, String text) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** The first string member {@code name} of a JSON text (these events' members are flat). */
  static String member(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
    return m.find() ? m.group(1) : null;
  }

  /** The posts of one event type. */
  static List<HttpTestServer.Post> ofType(List<HttpTestServer.Post> posts, String type) {
    return posts.stream().filter(p -> type.equals(member(p.body(), "type"))).toList();
  }
}
