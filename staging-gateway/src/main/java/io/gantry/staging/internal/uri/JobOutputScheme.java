package io.gantry.staging.internal.uri;

import io.gantry.jsdl.JobOutputUri;
import io.gantry.staging.JobOutputs;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.util.Optional;

/**
 * {@code gantry-job:JOB/FILE}: a file of an earlier job's directory, read where job directories lie
 * and written into the consumer's directory in one stream, host to host: on this host both are
 * local files; on a cluster both are SFTP channels of the server's one connection, so the bytes
 * never rest on the server or in a directory other users can see. The producer's directory is
 * confined as the job's own is ({@link JobFiles}): no {@code ..}, no link followed, only a regular
 * file read.
 *
 * <p>The file is followed as it is written when the producer still runs (a consumer that streams
 * it, gx:AfterStart): read to the end of what is there, then again once the producer wrote more,
 * until the producer has SUCCEEDED; the bytes are the same as when it is read after the producer
 * ended.
 */
public final class JobOutputScheme implements UriScheme {
  /** Bytes copied at a time: what one streamed source holds in memory. */
  private static final int BLOCK = 64 * 1024;

  /**
   * Waits at the end of what the producer has written so far, doubling from the first to the last:
   * a producer writing steadily is followed within milliseconds, an idle one asked about five times
   * a second.
   */
  private static final long FIRST_PAUSE_MS = 5;

  private static final long LAST_PAUSE_MS = 200;

  private final JobOutputs outputs;
  private final JobFiles consumer;

  /**
   * @param consumer the consuming job's directory: the producer's is opened on the same side
   */
  public JobOutputScheme(JobOutputs outputs, JobFiles consumer) {
    this.outputs = outputs;
    this.consumer = consumer;
  }

  @Override
  public long download(UriTransfer transfer, UriLogin login, OutputStream out, StepContext context)
      throws UriFailure, IOException, InterruptedException {
    JobOutputUri source = parse(transfer);
    String directory =
        outputs
            .directory(source.job())
            .orElseThrow(() -> UriFailure.permanent("there is no job " + source.job(), null));
    JobFiles producer;
    try {
      producer = consumer.sibling(directory);
    } catch (IOException e) {
      throw UriFailure.permanent(
          "the directory of job "
              + source.job()
              + " is gone (removed after the job ended?): "
              + e.getMessage(),
          e);
    }
    String what = "job " + source.job() + "'s file";
    try {
      long copied = follow(producer, source, what, out, context);
      // a file replaced (renamed over) while it was followed: what was read is not its content
      try (SeekableByteChannel now = producer.openForReading(source.file(), what)) {
        if (now.size() != copied) {
          throw UriFailure.retryable(
              what + " " + source.file() + " was replaced while it was read; reading it again",
              null);
        }
      }
      return copied;
    } catch (NoSuchFileException e) {
      throw UriFailure.permanent(e.getMessage() + " (the job did not write it)", e);
    }
  }

  /**
   * Copies the file to {@code out} as it grows, in blocks of {@link #BLOCK} bytes (bounded memory:
   * what the consumer has not read yet stays in the producer's file, and what it has read is on
   * disk in its own), until the producer has ended SUCCEEDED and everything it wrote is copied. A
   * producer that has already SUCCEEDED (gx:After) is copied straight through. A producer that ends
   * otherwise fails this source, naming it: the bytes read so far are not its output.
   */
  private long follow(
      JobFiles producer, JobOutputUri source, String what, OutputStream out, StepContext context)
      throws UriFailure, IOException, InterruptedException {
    SeekableByteChannel file = openWhenWritten(producer, source, what, context);
    try {
      ByteBuffer block = ByteBuffer.allocate(BLOCK);
      long copied = 0;
      long pause = FIRST_PAUSE_MS;
      boolean ended = false;
      while (true) {
        int n = file.read(block);
        if (n > 0) {
          out.write(block.array(), 0, n);
          block.clear();
          copied += n;
          pause = FIRST_PAUSE_MS;
          continue;
        }
        if (ended) {
          return copied; // the end of a file that grows no more
        }
        JobOutputs.Progress progress = outputs.progress(source.job());
        if (progress.ended()) {
          if (!progress.succeeded()) {
            throw producerEnded(source, progress);
          }
          ended = true; // read once more: it may have written more since the last read
        } else {
          context.checkCancelled();
          Thread.sleep(pause);
          pause = Math.min(pause * 2, LAST_PAUSE_MS);
        }
        if (file.size() <= copied) {
          // a channel that knows the size seen when it was opened (SFTP): look at the file again
          file.close();
          file = producer.openForReading(source.file(), what);
          file.position(copied);
        }
      }
    } finally {
      file.close();
    }
  }

  /**
   * Opens the producer's file, waiting while the producer runs and has not created it yet (a
   * streaming consumer may start before the producer's program writes its first byte).
   */
  private SeekableByteChannel openWhenWritten(
      JobFiles producer, JobOutputUri source, String what, StepContext context)
      throws UriFailure, IOException, InterruptedException {
    long pause = FIRST_PAUSE_MS;
    while (true) {
      try {
        return producer.openForReading(source.file(), what);
      } catch (NoSuchFileException e) {
        JobOutputs.Progress progress = outputs.progress(source.job());
        if (progress.ended()) {
          if (!progress.succeeded()) {
            throw producerEnded(source, progress);
          }
          throw e;
        }
      }
      context.checkCancelled();
      Thread.sleep(pause);
      pause = Math.min(pause * 2, LAST_PAUSE_MS);
    }
  }

  private static UriFailure producerEnded(JobOutputUri source, JobOutputs.Progress progress) {
    return UriFailure.permanent(
        "job "
            + source.job()
            + " ended "
            + progress.state()
            + " while this job read its file "
            + source.file()
            + " as it was written (gx:AfterStart): only a job that SUCCEEDED hands its files on",
        null);
  }

  /** Not cached: the producer's file is already where staging reads it. */
  @Override
  public Optional<RemoteVersion> version(
      UriTransfer transfer, UriLogin login, StepContext context) {
    return Optional.empty();
  }

  @Override
  public long upload(
      UriTransfer transfer,
      UriLogin login,
      SeekableByteChannel file,
      long size,
      StepContext context)
      throws UriFailure {
    throw UriFailure.permanent(
        transfer.describe() + " names an earlier job's file: it can only be a Source", null);
  }

  private static JobOutputUri parse(UriTransfer transfer) throws UriFailure {
    try {
      return JobOutputUri.parse(transfer.uri().toString());
    } catch (IllegalArgumentException e) {
      throw UriFailure.permanent(e.getMessage(), e);
    }
  }
}
