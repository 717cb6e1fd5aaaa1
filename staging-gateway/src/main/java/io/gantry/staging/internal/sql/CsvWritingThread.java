package io.gantry.staging.internal.sql;

import io.gantry.staging.internal.csv.CsvRowWriter;
import io.gantry.staging.internal.csv.SqlValueFormats.ColumnFormat;
import io.gantry.staging.internal.steps.BrokenStreamException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Formats and writes rows as CSV on a thread of its own, while the step's thread reads the next
 * ones from the driver.
 *
 * <p>Why: a JDBC driver fetches a cursor's rows a batch at a time (PostgreSQL: {@code fetchSize}
 * rows per round trip), and the database sits idle while the one thread that fetched them also
 * formats, encodes and hands them to the compressor; {@code psql | gzip} overlaps the three. With
 * the formatting here, the database produces the next batch while this thread writes the last one
 * (staging-gateway/README.md, "Benchmark", has the profile and the figures).
 *
 * <p>Rows come in batches of decoded values ({@link ColumnFormat#read}); at most {@link
 * #BATCHES_IN_FLIGHT} wait, which bounds memory. Batches are written in the order they came, so the
 * file is the same bytes as one thread writes. A failure here (a full disk) stops the reader at its
 * next hand-off; a failure of the reader stops this thread ({@link #close}).
 */
final class CsvWritingThread implements AutoCloseable {
  static final int BATCHES_IN_FLIGHT = 4;
  private static final Batch END = new Batch(null, null, 0);
  private static final AtomicInteger THREADS = new AtomicInteger();

  /** {@code rows} rows of {@code formats.length} values each, row after row. */
  static final class Batch {
    final ColumnFormat[] formats;
    final Object[] values;
    final int rows;

    Batch(ColumnFormat[] formats, Object[] values, int rows) {
      this.formats = formats;
      this.values = values;
      this.rows = rows;
    }
  }

  private final CsvRowWriter csv;
  private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(BATCHES_IN_FLIGHT);
  private volatile Throwable failure;
  private Thread thread;

  CsvWritingThread(CsvRowWriter csv) {
    this.csv = csv;
  }

  /** True once a batch was handed over: from then on only this thread writes to the CSV. */
  boolean started() {
    return thread != null;
  }

  /** Queues a batch, waiting while {@link #BATCHES_IN_FLIGHT} are queued. */
  void write(Batch batch) throws IOException, InterruptedException {
    if (thread == null) {
      thread = new Thread(this::run, "gantry-staging-csv-" + THREADS.incrementAndGet());
      thread.setDaemon(true);
      thread.start();
    }
    hand(batch);
  }

  /** Waits until every queued row is written; rethrows this thread's failure. */
  void finish() throws IOException, InterruptedException {
    if (thread == null) {
      return;
    }
    hand(END);
    thread.join();
    thread = null;
    rethrowFailure();
  }

  private void hand(Batch batch) throws IOException, InterruptedException {
    while (!queue.offer(batch, 50, TimeUnit.MILLISECONDS)) {
      rethrowFailure(); // a thread that failed takes nothing more
    }
  }

  private void rethrowFailure() throws IOException {
    Throwable t = failure;
    if (t == null) {
      return;
    }
    if (t instanceof InterruptedIOException) {
      throw new InterruptedIOException("writing the CSV was interrupted");
    }
    if (t instanceof BrokenStreamException) {
      // a link to a remote job directory that broke: the step is retried from the start
      // (RetriedAttempts knows it by its type, which a plain IOException would hide)
      throw new BrokenStreamException(t.getMessage(), t);
    }
    if (t instanceof IOException) {
      throw new IOException(t.getMessage(), t);
    }
    if (t instanceof Error) {
      throw new Error(t.getMessage(), t);
    }
    throw new IllegalStateException("writing the CSV failed: " + t, t);
  }

  private void run() {
    try {
      for (Batch b = queue.take(); b.formats != null; b = queue.take()) { // END has none
        ColumnFormat[] formats = b.formats;
        Object[] values = b.values;
        int at = 0;
        for (int r = 0; r < b.rows; r++) {
          for (ColumnFormat format : formats) {
            Object v = values[at++];
            if (v == null) {
              csv.field(null);
            } else {
              format.write(v, csv);
            }
          }
          csv.endRecord();
        }
      }
    } catch (InterruptedException e) {
      failure = new InterruptedIOException("interrupted");
    } catch (Throwable t) { // handed to the reader, which reports it
      failure = t;
    }
  }

  /** Stops the thread if it still runs (the reader failed or was cancelled) and waits for it. */
  @Override
  public void close() {
    Thread t = thread;
    if (t == null) {
      return;
    }
    thread = null;
    t.interrupt();
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
