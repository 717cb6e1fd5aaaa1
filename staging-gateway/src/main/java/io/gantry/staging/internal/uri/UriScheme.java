package io.gantry.staging.internal.uri;

import io.gantry.staging.UriLogin;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.Optional;

/**
 * One protocol of standard staging. The step around it owns the job-directory side (temporary name,
 * checksum, creation flag, retries); a scheme only moves bytes, and on the remote side writes under
 * a temporary name and renames where the protocol can.
 */
public interface UriScheme {
  /** Copies the remote file into {@code out}; returns the bytes copied. */
  long download(UriTransfer transfer, UriLogin login, OutputStream out, StepContext context)
      throws UriFailure, IOException, InterruptedException;

  /**
   * Sends the job-directory file opened as {@code file} (at its start, {@code size} bytes; opened
   * without following links) to the remote side; returns the bytes sent.
   */
  long upload(
      UriTransfer transfer,
      UriLogin login,
      SeekableByteChannel file,
      long size,
      StepContext context)
      throws UriFailure, IOException, InterruptedException;

  /**
   * The remote file's size and modification time (or entity tag) as its server reports them, asked
   * with the job's own login, for the stage-in cache's key; empty when the protocol or server does
   * not tell (then the file is not cached).
   */
  Optional<RemoteVersion> version(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure, IOException, InterruptedException;
}
