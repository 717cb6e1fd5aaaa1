package io.gantry.jsdl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Test documents: the valid base job, and a syntactically valid dummy encrypted password. */
final class JsdlDocuments {
  /** ENC(...) of 384 bytes, the size of an RSA-OAEP ciphertext under a 3072-bit key. */
  static final String DUMMY_ENCRYPTED =
      EncryptedSecret.format(
          SecretBinding.of("alice", "jdbc:h2:tcp://localhost/risk"), filled(384));

  private JsdlDocuments() {}

  /** A valid job using every Gantry extension element; each invalid case changes one thing. */
  static String baseJob() {
    try (InputStream in = JsdlDocuments.class.getResourceAsStream("base-job.jsdl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("ENC_VALUE", DUMMY_ENCRYPTED);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] filled(int length) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) 0x5a);
    return bytes;
  }
}
