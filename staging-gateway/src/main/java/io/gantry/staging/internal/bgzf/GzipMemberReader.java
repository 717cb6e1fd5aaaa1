package io.gantry.staging.internal.bgzf;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads any series of gzip members (RFC 1952) as one stream: our blocked gzip, {@code bgzip}'s BGZF
 * and ordinary (also concatenated) {@code gzip} files. Every member's CRC-32 and length are
 * checked, so a truncated or corrupted file fails with the byte offset of the bad member instead of
 * yielding wrong data.
 */
public final class GzipMemberReader extends InputStream {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private final InputStream in;
  private final byte[] buffer = new byte[64 * 1024];
  private int pos;
  private int limit;
  private long consumedBefore; // file offset of buffer[0]
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private long memberOffset;
  private long memberOut;
  private boolean inMember;
  private boolean done;
  private final String name;

  /**
   * @param name the file's name, for error messages
   */
  public GzipMemberReader(InputStream in, String name) {
    this.in = in;
    this.name = name;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!done) {
      if (!inMember && !startMember()) {
        done = true;
        break;
      }
      int n = inflateSome(b, off, len);
      if (n > 0) {
        return n;
      }
    }
    return -1;
  }

  private int inflateSome(byte[] b, int off, int len) throws IOException {
    try {
      if (inflater.needsInput()) {
        if (!fill()) {
          throw corrupt("file ends inside a compressed block");
        }
        inflater.setInput(buffer, pos, limit - pos);
        pos = limit;
      }
      int n = inflater.inflate(b, off, len);
      crc.update(b, off, n);
      memberOut += n;
      if (inflater.finished()) {
        pos -= inflater.getRemaining();
        finishMember();
      } else if (n == 0 && inflater.needsDictionary()) {
        throw corrupt("deflate stream needs a preset dictionary");
      }
      return n;
    } catch (DataFormatException e) {
      throw corrupt("invalid deflate data (" + e.getMessage() + ")");
    }
  }

  /** Reads a member header; false at a clean end of file. */
  private boolean startMember() throws IOException {
    if (pos == limit && !fill()) {
      return false;
    }
    memberOffset = consumedBefore + pos;
    if (u8() != 0x1f || u8() != 0x8b) {
      throw corrupt("not a gzip member (bad magic bytes)");
    }
    if (u8() != 8) {
      throw corrupt("unsupported compression method");
    }
    int flags = u8();
    skip(6); // MTIME XFL OS
    if ((flags & FEXTRA) != 0) {
      skip(u8() | (u8() << 8));
    }
    if ((flags & FNAME) != 0) {
      skipZeroTerminated();
    }
    if ((flags & FCOMMENT) != 0) {
      skipZeroTerminated();
    }
    if ((flags & FHCRC) != 0) {
      skip(2);
    }
    inflater.reset();
    crc.reset();
    memberOut = 0;
    inMember = true;
    return true;
  }

  private void finishMember() throws IOException {
    long expectedCrc = u32();
    long expectedSize = u32();
    if (expectedCrc != crc.getValue()) {
      throw corrupt("CRC-32 mismatch");
    }
    if (expectedSize != (memberOut & 0xffffffffL)) {
      throw corrupt("length mismatch");
    }
    inMember = false;
  }

  private boolean fill() throws IOException {
    if (pos < limit) {
      return true;
    }
    consumedBefore += limit;
    pos = 0;
    limit = 0;
    int n = in.read(buffer, 0, buffer.length);
    if (n <= 0) {
      return false;
    }
    limit = n;
    return true;
  }

  private int u8() throws IOException {
    if (!fill()) {
      throw inMember
          ? corrupt("file ends inside a block trailer")
          : corrupt("file ends inside a gzip header");
    }
    return buffer[pos++] & 0xff;
  }

  private long u32() throws IOException {
    return (u8() | (u8() << 8) | (u8() << 16) | ((long) u8() << 24)) & 0xffffffffL;
  }

  private void skip(int n) throws IOException {
    for (int i = 0; i < n; i++) {
      u8();
    }
  }

  private void skipZeroTerminated() throws IOException {
    while (u8() != 0) {
      // skip the file name or comment
    }
  }

  private IOException corrupt(String what) {
    return new EOFException(
        name
            + ": corrupt or truncated gzip data at the member starting at byte "
            + memberOffset
            + ": "
            + what);
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    in.close();
  }
}
