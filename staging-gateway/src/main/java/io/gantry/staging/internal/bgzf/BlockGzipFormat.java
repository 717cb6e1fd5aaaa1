package io.gantry.staging.internal.bgzf;

/**
 * Blocked gzip as design.md fixes it, compatible with BGZF (SAM/BAM specification, section 4.1): a
 * series of complete gzip members, each one deflated block of at most 64 KiB, whose header carries
 * an extra field {@code 'B','C'} with the member's total size minus one, closed by a fixed empty
 * member. {@code gzip -d} reads it as a multi-member gzip file; BGZF readers can seek to and
 * inflate blocks independently.
 */
public final class BlockGzipFormat {
  private BlockGzipFormat() {}

  /** ID1 ID2 CM FLG(FEXTRA) MTIME(4) XFL OS(unknown) XLEN(6) SI1 SI2 SLEN(2), then BSIZE (2). */
  static final byte[] HEADER_PREFIX = {
    0x1f, (byte) 0x8b, 8, 4, 0, 0, 0, 0, 0, (byte) 0xff, 6, 0, 'B', 'C', 2, 0
  };

  static final int HEADER_SIZE = HEADER_PREFIX.length + 2;
  static final int TRAILER_SIZE = 8;

  /** The largest member BSIZE can describe. */
  static final int MAX_MEMBER_SIZE = 65536;

  /** The standard BGZF end-of-file marker: an empty block, 28 bytes. */
  static final byte[] EOF_BLOCK = {
    0x1f,
    (byte) 0x8b,
    8,
    4,
    0,
    0,
    0,
    0,
    0,
    (byte) 0xff,
    6,
    0,
    'B',
    'C',
    2,
    0,
    0x1b,
    0,
    3,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0
  };

  /** True when the bytes start like any gzip stream (magic 1f 8b). */
  public static boolean isGzip(byte[] head, int length) {
    return length >= 2 && head[0] == 0x1f && head[1] == (byte) 0x8b;
  }
}
