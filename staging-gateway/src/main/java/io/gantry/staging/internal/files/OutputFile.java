package io.gantry.staging.internal.files;

import io.gantry.staging.CreationFlag;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A staged output that appears under its final name only when complete: in the local job directory
 * ({@link StagedFile}) or on a cluster's file system over SFTP ({@code RemoteStagedFile}). Bytes
 * are counted and digested as they pass, so the checksum is the stream's, never a second read.
 */
public interface OutputFile extends AutoCloseable {
  /** Where to write; closing it does not commit. */
  OutputStream stream();

  long bytes();

  /** SHA-256 of all bytes written; ends writing. */
  String sha256();

  /** Publishes the file under its final name; returns the SHA-256 of its bytes. */
  String commit(CreationFlag flag) throws IOException;

  /** Without a commit, removes the temporary file: a failed step leaves nothing. */
  @Override
  void close() throws IOException;
}
