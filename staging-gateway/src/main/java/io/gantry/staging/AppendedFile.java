package io.gantry.staging;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file of a job directory that the job's program follows while the server appends to it (a
 * streamed input, {@code gx:Stream file}; docs/workflows.md, "Streaming between stages"). Each
 * append is on the file system before it returns, so a reader on another host never sees a later
 * block before an earlier one.
 */
public interface AppendedFile extends AutoCloseable {
  /** Appends every remaining byte of {@code block}. */
  void append(ByteBuffer block) throws IOException;

  /** The bytes appended so far. */
  long size();

  /** Stops appending; an append blocked on the connection fails. The file stays. */
  @Override
  void close();
}
