package io.gantry.staging.internal.bgzf;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/** Opening staged files whatever their compression, told by magic bytes rather than file names. */
public final class CompressedFiles {
  private CompressedFiles() {}

  /** True when the file starts with the gzip magic bytes. */
  public static boolean isGzip(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(2);
      return BlockGzipFormat.isGzip(head, head.length);
    }
  }

  /** The file's content, inflated if it is gzip (blocked or not). */
  public static InputStream openDecompressed(Path file) throws IOException {
    return decompressed(Files.newInputStream(file), file.getFileName().toString());
  }

  /** The stream's content, inflated if it is gzip (blocked or not); {@code name} for messages. */
  public static InputStream decompressed(InputStream in, String name) throws IOException {
    InputStream raw = new BufferedInputStream(in, 256 * 1024);
    raw.mark(2);
    byte[] head = raw.readNBytes(2);
    raw.reset();
    if (BlockGzipFormat.isGzip(head, head.length)) {
      return new GzipMemberReader(raw, name);
    }
    return raw;
  }

  /**
   * How many bytes of a blocked-gzip file to keep when appending to it: all but a trailing EOF
   * block, so the appended members follow the data directly.
   */
  public static long lengthWithoutEofBlock(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      int eof = BlockGzipFormat.EOF_BLOCK.length;
      if (size < eof) {
        return size;
      }
      byte[] tail = new byte[eof];
      ch.read(java.nio.ByteBuffer.wrap(tail), size - eof);
      return Arrays.equals(tail, BlockGzipFormat.EOF_BLOCK) ? size - eof : size;
    }
  }
}
