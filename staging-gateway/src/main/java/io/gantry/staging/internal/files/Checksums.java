package io.gantry.staging.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 of whole files, as manifests and the stage-out ledger record them. */
public final class Checksums {
  private Checksums() {}

  /** SHA-256 of an opened file's bytes from its start; leaves the channel at its start again. */
  public static String sha256(SeekableByteChannel channel) throws IOException {
    channel.position(0);
    String sum = sha256(Channels.newInputStream(channel));
    channel.position(0);
    return sum;
  }

  public static String sha256(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return sha256(in);
    }
  }

  /** SHA-256 of the rest of a stream's bytes. */
  public static String sha256(InputStream in) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    byte[] buf = new byte[256 * 1024];
    int n;
    while ((n = in.read(buf)) > 0) {
      digest.update(buf, 0, n);
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
