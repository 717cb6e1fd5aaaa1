package io.gantry.staging.internal.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.staging.internal.csv.CsvRowWriter;
import io.gantry.staging.internal.csv.SqlValueFormats.ColumnFormat;
import io.gantry.staging.internal.steps.BrokenStreamException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.ResultSet;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The hand-off of rows to the writing thread: order kept, failures reported, a stop that ends. */
class CsvWritingThreadTest {
  /** Writes each value's text; reading is the result set's, not needed here. */
  private static final ColumnFormat TEXT =
      new ColumnFormat() {
        @Override
        public Object read(ResultSet rs, int i) {
          throw new UnsupportedOperationException("rows are handed over already read");
        }

        @Override
        public void write(Object value, CsvRowWriter out) throws IOException {
          out.field(value.toString());
        }
      };

  private static final ColumnFormat[] TWO = {TEXT, TEXT};

  @Test
  void batchesAreWrittenInTheOrderTheyCameAsOneThreadWritesThem() throws Exception {
    ByteArrayOutputStream threaded = new ByteArrayOutputStream();
    ByteArrayOutputStream direct = new ByteArrayOutputStream();
    try (CsvRowWriter csv = new CsvRowWriter(threaded);
        CsvWritingThread writer = new CsvWritingThread(csv);
        CsvRowWriter one = new CsvRowWriter(direct)) {
      for (int b = 0; b < 50; b++) {
        int rows = 1 + b % 7;
        Object[] values = new Object[2 * rows];
        for (int r = 0; r < rows; r++) {
          values[2 * r] = b * 100 + r;
          values[2 * r + 1] = r % 3 == 0 ? null : "v" + b + "," + r;
          one.field(values[2 * r].toString());
          one.field((String) values[2 * r + 1]);
          one.endRecord();
        }
        writer.write(new CsvWritingThread.Batch(TWO, values, rows));
      }
      writer.finish();
      assertFalse(writer.started(), "finish ends the thread");
    }
    assertArrayEquals(direct.toByteArray(), threaded.toByteArray());
  }

  @Test
  void aFailedWriteReachesTheReaderWithItsMessage() throws Exception {
    OutputStream full =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("No space left on device");
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            throw new IOException("No space left on device");
          }
        };
    CsvRowWriter csv = new CsvRowWriter(full);
    try (CsvWritingThread writer = new CsvWritingThread(csv)) {
      IOException e =
          assertThrows(
              IOException.class,
              () -> {
                Object[] values = new Object[2 * 4096];
                java.util.Arrays.fill(values, "0123456789");
                for (int b = 0; b < 1000; b++) { // far more than the buffer and the queue hold
                  writer.write(new CsvWritingThread.Batch(TWO, values, 4096));
                }
                writer.finish();
              });
      assertEquals("No space left on device", e.getMessage());
    }
  }

  /**
   * A link to a remote job directory that breaks while the writing thread sends: the reader gets
   * the broken stream as such, so the step is retried from the start (ClusterStagingTest's cut
   * connection failed the step instead whenever the cut reached this thread first).
   */
  @Test
  void aBrokenStreamReachesTheReaderAsABrokenStream() throws Exception {
    OutputStream cut =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new BrokenStreamException("the stream broke after 524158 bytes", null);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            write(0);
          }
        };
    try (CsvWritingThread writer = new CsvWritingThread(new CsvRowWriter(cut))) {
      BrokenStreamException e =
          assertThrows(
              BrokenStreamException.class,
              () -> {
                Object[] values = new Object[2 * 4096];
                java.util.Arrays.fill(values, "0123456789");
                for (int b = 0; b < 1000; b++) {
                  writer.write(new CsvWritingThread.Batch(TWO, values, 4096));
                }
                writer.finish();
              });
      assertEquals("the stream broke after 524158 bytes", e.getMessage());
    }
  }

  @Test
  void closingStopsAThreadBlockedInItsStream() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    OutputStream stuck =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            writing.countDown();
            try {
              Thread.sleep(Long.MAX_VALUE); // a stream that never returns until interrupted
            } catch (InterruptedException e) {
              throw new java.io.InterruptedIOException("interrupted");
            }
          }
        };
    CsvWritingThread writer = new CsvWritingThread(new CsvRowWriter(stuck));
    Object[] values = new Object[2 * 8192];
    java.util.Arrays.fill(values, "0123456789");
    writer.write(new CsvWritingThread.Batch(TWO, values, 8192));
    writing.await();
    assertTrue(writer.started());
    writer.close(); // the reader failed: the thread must end, not hang
    assertFalse(writer.started());
  }
}
