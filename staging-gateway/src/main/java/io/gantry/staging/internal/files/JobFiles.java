package io.gantry.staging.internal.files;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;

/**
 * The job directory as staging steps use it, wherever it lies: on this host ({@link JobDirectory})
 * or on a cluster's shared file system reached over SFTP ({@code RemoteJobDirectory}). Names are
 * relative to the directory and confined to it by both.
 */
public interface JobFiles {
  /** A new file {@code name}, published by rename when committed; parents are created. */
  OutputFile create(String name, String what) throws IOException;

  /** Whether {@code name} exists (a link counts, and is not followed). */
  boolean exists(String name, String what) throws IOException;

  /**
   * Opens a file for reading without following links on the way; only a regular file is read.
   *
   * @throws java.nio.file.NoSuchFileException naming {@code what} when it is missing
   */
  SeekableByteChannel openForReading(String name, String what) throws IOException;

  /** Removes {@code name} if it is there; true if it was. */
  boolean delete(String name, String what) throws IOException;

  /**
   * Another job's directory on the same side as this one (this host, or the same cluster over the
   * same connection), confined as this one is: where a {@code gantry-job:} source is read from.
   *
   * @param directory its absolute path there
   */
  JobFiles sibling(String directory) throws IOException;

  /** The local directory, or null when the job directory is remote. */
  JobDirectory local();
}
