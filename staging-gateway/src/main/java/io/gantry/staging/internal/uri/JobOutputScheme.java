package io.gantry.staging.internal.uri;

import io.gantry.jsdl.JobOutputUri;
import io.gantry.staging.JobOutputs;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
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
 */
public final class JobOutputScheme implements UriScheme {
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
      throws UriFailure, IOException {
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
    try (SeekableByteChannel file = producer.openForReading(source.file(), what);
        InputStream in = Channels.newInputStream(file)) {
      return in.transferTo(out);
    } catch (NoSuchFileException e) {
      throw UriFailure.permanent(e.getMessage() + " (the job did not write it)", e);
    }
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
