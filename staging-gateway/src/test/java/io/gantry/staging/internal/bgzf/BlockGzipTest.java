package io.gantry.staging.internal.bgzf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockGzipTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

  /** The committed test vector, shared with the C reader of the node programs. */
  static final Path VECTOR_DIR = Path.of("..", "tests", "vectors", "blocked-gzip");

  @TempDir Path dir;

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  static byte[] compress(byte[] data, int blockSize, int level, ExecutorService pool)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BlockGzipWriter w = new BlockGzipWriter(out, pool, 3, blockSize, level)) {
      // uneven write sizes cross block boundaries in every way
      int off = 0;
      int step = 1;
      while (off < data.length) {
        int n = Math.min(step, data.length - off);
        w.write(data, off, n);
        off += n;
        step = step * 3 % 7919 + 1;
      }
    }
    return out.toByteArray();
  }

  static byte[] inflate(byte[] gz) throws IOException {
    try (InputStream in = new GzipMemberReader(new ByteArrayInputStream(gz), "test")) {
      return in.readAllBytes();
    }
  }

  static byte[] sampleCsv(int rows) {
    StringBuilder b = new StringBuilder("id,book,notional\n");
    Random r = new Random(42);
    for (int i = 0; i < rows; i++) {
      b.append(i)
          .append(",BOOK-")
          .append(r.nextInt(50))
          .append(',')
          .append(r.nextInt(1_000_000))
          .append(".25\n");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void roundTripsAnySizeOnAnyNumberOfThreads() throws IOException {
    byte[] random = new byte[300_000];
    new Random(7).nextBytes(random);
    for (byte[] data : new byte[][] {new byte[0], {42}, sampleCsv(1), sampleCsv(20_000), random}) {
      for (int blockSize : new int[] {1024, 16 * 1024, 65280}) {
        assertArrayEquals(data, inflate(compress(data, blockSize, 1, POOL)));
        assertArrayEquals(data, inflate(compress(data, blockSize, 6, null)));
      }
    }
  }

  @Test
  void everyMemberIsABgzfBlockWithItsSizeAndTheFileEndsWithTheEofBlock() throws IOException {
    byte[] random = new byte[200_000];
    new Random(1).nextBytes(random); // incompressible: blocks are stored, and must still fit BSIZE
    for (byte[] data : new byte[][] {sampleCsv(30_000), random}) {
      byte[] gz = compress(data, 65280, 1, POOL);
      int at = 0;
      int members = 0;
      while (at < gz.length) {
        assertEquals(0x1f, gz[at] & 0xff);
        assertEquals(0x8b, gz[at + 1] & 0xff);
        assertEquals(4, gz[at + 3] & 0xff, "FEXTRA set");
        assertEquals('B', gz[at + 12]);
        assertEquals('C', gz[at + 13]);
        int bsize = (gz[at + 16] & 0xff) | (gz[at + 17] & 0xff) << 8;
        int isize = readIntLe(gz, at + bsize + 1 - 4);
        assertTrue(isize <= 65536);
        at += bsize + 1;
        members++;
      }
      assertEquals(gz.length, at, "members tile the file exactly");
      assertTrue(members > 3);
      assertArrayEquals(
          BlockGzipFormat.EOF_BLOCK, Arrays.copyOfRange(gz, gz.length - 28, gz.length));
    }
  }

  @Test
  void gzipAndBgzipDecompressOurFiles() throws Exception {
    byte[] data = sampleCsv(50_000);
    Path gz = dir.resolve("ours.csv.gz");
    Files.write(gz, compress(data, 16 * 1024, 1, POOL));
    assertArrayEquals(data, run(dir, "gzip", "-dc", gz.toString()));
    assertArrayEquals(data, run(dir, "bgzip", "-dc", gz.toString()));
    run(dir, "gzip", "-t", gz.toString());
  }

  @Test
  void ourReaderReadsBgzipAndPlainGzipFiles() throws Exception {
    byte[] data = sampleCsv(50_000);
    Path plain = dir.resolve("plain.csv");
    Files.write(plain, data);
    assertArrayEquals(data, inflate(run(dir, "bgzip", "-c", plain.toString())));
    assertArrayEquals(data, inflate(run(dir, "gzip", "-c", plain.toString())));
    byte[] twoMembers =
        concat(run(dir, "gzip", "-c", plain.toString()), run(dir, "gzip", "-1c", plain.toString()));
    assertArrayEquals(concat(data, data), inflate(twoMembers));
  }

  @Test
  void aTruncatedOrCorruptedFileFailsInsteadOfYieldingWrongData() throws IOException {
    byte[] gz = compress(sampleCsv(20_000), 4096, 1, POOL);
    IOException truncated =
        assertThrows(IOException.class, () -> inflate(Arrays.copyOf(gz, gz.length / 2)));
    assertTrue(truncated.getMessage().contains("corrupt or truncated"), truncated.getMessage());
    byte[] flipped = gz.clone();
    flipped[gz.length / 2] ^= 0x55;
    IOException corrupt = assertThrows(IOException.class, () -> inflate(flipped));
    assertTrue(
        corrupt.getMessage().contains("at the member starting at byte"), corrupt.getMessage());
  }

  @Test
  void theCommittedTestVectorIsOurWritersOutputAndReadsBackToItsOriginal() throws Exception {
    byte[] plain = Files.readAllBytes(VECTOR_DIR.resolve("factor_history.csv"));
    byte[] gz = Files.readAllBytes(VECTOR_DIR.resolve("factor_history.csv.gz"));
    assertArrayEquals(plain, inflate(gz));
    assertTrue(countMembers(gz) >= 4, "several blocks, so a reader must cross member boundaries");
    assertArrayEquals(
        plain,
        run(
            dir,
            "bgzip",
            "-dc",
            VECTOR_DIR.resolve("factor_history.csv.gz").toAbsolutePath().toString()));
  }

  /** How the committed vector was written; README.txt says the same. */
  static final class VectorSpec {
    static final int BLOCK_SIZE = 1024;
    static final int LEVEL = 6;

    /** Regenerates the vector: run with the test classpath, from the staging-gateway directory. */
    public static void main(String[] args) throws IOException {
      byte[] plain = Files.readAllBytes(VECTOR_DIR.resolve("factor_history.csv"));
      Files.write(
          VECTOR_DIR.resolve("factor_history.csv.gz"), compress(plain, BLOCK_SIZE, LEVEL, null));
    }
  }

  static byte[] run(Path cwd, String... command) throws Exception {
    Process p =
        new ProcessBuilder(command)
            .directory(cwd.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    assertEquals(0, p.waitFor(), String.join(" ", command) + " failed");
    return out;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** Walks the members by their BSIZE fields; fails if they do not tile the file. */
  static int countMembers(byte[] gz) {
    int at = 0;
    int members = 0;
    while (at < gz.length) {
      assertEquals('B', gz[at + 12]);
      at += ((gz[at + 16] & 0xff) | (gz[at + 17] & 0xff) << 8) + 1;
      members++;
    }
    assertEquals(gz.length, at);
    return members;
  }

  private static int readIntLe(byte[] b, int at) {
    return (b[at] & 0xff)
        | (b[at + 1] & 0xff) << 8
        | (b[at + 2] & 0xff) << 16
        | (b[at + 3] & 0xff) << 24;
  }
}
