package io.gantry.staging.internal.bgzf;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes blocked gzip (see {@link BlockGzipFormat}), deflating blocks on a thread pool.
 *
 * <p>Strategy:
 *
 * <ol>
 *   <li>Bytes collect in a block buffer of {@code blockSize} bytes.
 *   <li>A full block is handed to the pool, which deflates it into a complete gzip member.
 *   <li>Members are written to the underlying stream strictly in block order, by the writing
 *       thread, as the oldest pending block completes; at most {@code 2 x threads} blocks are
 *       pending, which bounds memory.
 *   <li>{@link #close()} flushes the last partial block and appends the EOF block.
 * </ol>
 *
 * A block that does not shrink is stored (deflate level 0), so a member always fits BSIZE.
 */
public final class BlockGzipWriter extends OutputStream {
  private static final ThreadLocal<Deflater[]> DEFLATERS =
      ThreadLocal.withInitial(() -> new Deflater[10]);

  private final OutputStream out;
  private final ExecutorService pool;
  private final int blockSize;
  private final int level;
  private final int maxPending;
  private final ArrayDeque<Future<byte[]>> pending = new ArrayDeque<>();
  private byte[] block;
  private int fill;
  private boolean closed;

  /**
   * @param pool deflates blocks; null to deflate on the calling thread
   * @param blockSize uncompressed bytes per block, at most 65280
   * @param level deflate level 1..9
   */
  public BlockGzipWriter(
      OutputStream out, ExecutorService pool, int threads, int blockSize, int level) {
    if (blockSize < 1 || blockSize > 65280) {
      throw new IllegalArgumentException("block size must be 1..65280 bytes, not " + blockSize);
    }
    this.out = out;
    this.pool = pool;
    this.blockSize = blockSize;
    this.level = level;
    this.maxPending = Math.max(2, 2 * threads);
    this.block = new byte[blockSize];
  }

  @Override
  public void write(int b) throws IOException {
    if (fill == blockSize) {
      emitBlock();
    }
    block[fill++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      if (fill == blockSize) {
        emitBlock();
      }
      int n = Math.min(len, blockSize - fill);
      System.arraycopy(b, off, block, fill, n);
      fill += n;
      off += n;
      len -= n;
    }
  }

  private void emitBlock() throws IOException {
    if (fill == 0) {
      return;
    }
    byte[] data = block;
    int length = fill;
    block = new byte[blockSize];
    fill = 0;
    if (pool == null) {
      out.write(compressMember(data, length, level));
      return;
    }
    while (pending.size() >= maxPending) {
      writeOldest();
    }
    pending.add(pool.submit(() -> compressMember(data, length, level)));
  }

  private void writeOldest() throws IOException {
    Future<byte[]> head = pending.poll();
    try {
      out.write(head.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while compressing");
    } catch (ExecutionException e) {
      throw new IOException("block compression failed", e.getCause());
    }
  }

  /** Flushes complete members only: a partial block stays buffered (members are never split). */
  @Override
  public void flush() throws IOException {
    while (!pending.isEmpty()) {
      writeOldest();
    }
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      emitBlock();
      flush();
      out.write(BlockGzipFormat.EOF_BLOCK);
    } finally {
      for (Future<byte[]> f : pending) {
        f.cancel(true);
      }
      out.close();
    }
  }

  /** Deflates one block into one complete BGZF member. */
  static byte[] compressMember(byte[] data, int length, int level) {
    byte[] member = deflateInto(data, length, level);
    if (member == null) {
      member = deflateInto(data, length, Deflater.NO_COMPRESSION);
    }
    CRC32 crc = new CRC32();
    crc.update(data, 0, length);
    int size = member.length;
    int bsize = size - 1;
    member[16] = (byte) bsize;
    member[17] = (byte) (bsize >>> 8);
    putIntLe(member, size - 8, (int) crc.getValue());
    putIntLe(member, size - 4, length);
    return member;
  }

  /** Returns header + deflated data + room for the trailer, or null if it would not fit BSIZE. */
  private static byte[] deflateInto(byte[] data, int length, int level) {
    Deflater[] byLevel = DEFLATERS.get();
    Deflater deflater = byLevel[level];
    if (deflater == null) {
      deflater = new Deflater(level, true);
      byLevel[level] = deflater;
    }
    deflater.reset();
    deflater.setInput(data, 0, length);
    deflater.finish();
    int limit =
        BlockGzipFormat.MAX_MEMBER_SIZE
            - BlockGzipFormat.HEADER_SIZE
            - BlockGzipFormat.TRAILER_SIZE;
    byte[] buffer = new byte[BlockGzipFormat.HEADER_SIZE + limit + 1];
    int n = 0;
    while (!deflater.finished() && n <= limit) {
      n += deflater.deflate(buffer, BlockGzipFormat.HEADER_SIZE + n, limit + 1 - n);
    }
    if (!deflater.finished() || n > limit) {
      return null;
    }
    byte[] member = new byte[BlockGzipFormat.HEADER_SIZE + n + BlockGzipFormat.TRAILER_SIZE];
    System.arraycopy(
        BlockGzipFormat.HEADER_PREFIX, 0, member, 0, BlockGzipFormat.HEADER_PREFIX.length);
    System.arraycopy(buffer, BlockGzipFormat.HEADER_SIZE, member, BlockGzipFormat.HEADER_SIZE, n);
    return member;
  }

  private static void putIntLe(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }
}
