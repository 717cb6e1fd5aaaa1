package io.gantry.staging.internal.ssh;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Hands writes to a thread of its own that passes them to {@code out}, through a bounded queue: the
 * producer (the query's rows, the block compressor) goes on while the previous bytes are on the
 * network, so producing and sending overlap instead of taking turns, as in a pipe between two
 * processes. At most {@code capacity} chunks wait; a full queue makes the producer wait (no
 * unbounded memory). A failure of the sending side is thrown at the producer's next write, flush or
 * close.
 */
final class PipelinedOutputStream extends OutputStream {
  private static final byte[] END = new byte[0];

  private final OutputStream out;
  private final BlockingQueue<byte[]> queue;
  private final Thread sender;
  private volatile IOException failure;
  private boolean closed;

  PipelinedOutputStream(OutputStream out, int capacity, String name) {
    this.out = out;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.sender = new Thread(this::send, name);
    sender.setDaemon(true);
    sender.start();
  }

  private void send() {
    try {
      for (byte[] chunk = queue.take(); chunk != END; chunk = queue.take()) {
        out.write(chunk);
      }
      out.flush();
    } catch (IOException e) {
      failure = e;
      queue.clear(); // unblock a producer waiting for room; it sees the failure next
    } catch (InterruptedException e) {
      failure = new InterruptedIOException("the sending thread was interrupted");
    }
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return;
    }
    put(Arrays.copyOfRange(b, off, off + len));
  }

  private void put(byte[] chunk) throws IOException {
    check();
    try {
      while (!queue.offer(chunk, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        check();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while streaming");
    }
  }

  private void check() throws IOException {
    IOException f = failure;
    if (f != null) {
      throw f;
    }
    if (!sender.isAlive()) {
      throw new IOException("the sending thread has ended");
    }
  }

  /** Waits until every byte written so far has been passed on, then closes {@code out}. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      put(END);
      sender.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while finishing the stream");
    } finally {
      if (failure == null) {
        out.close();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Gives up: the sending thread stops, {@code out} is closed, whatever was queued is lost. */
  void abandon() {
    closed = true;
    sender.interrupt();
    try {
      out.close();
    } catch (IOException e) {
      // the link is gone already
    }
  }
}
