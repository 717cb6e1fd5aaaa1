package io.gantry.server.internal.service;

import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.JobFileChunk;
import io.gantry.server.api.JobFileEntry;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.internal.datadirectory.JobDirectoryRetention;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.staging.JobDirectoryReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * getJobFile: a byte range of a file in a job's directory, read through {@link JobFileReader}: on
 * this host by {@link JobDirectoryReader}, on the cluster of {@code compute.ssh-host} over SFTP
 * with the same rules (relative names only, no link followed on the way, a regular file only), for
 * a caller the service has already let see the job. A missing file is told as a {@link
 * JobNotFoundFault} with code {@code FILE_NOT_FOUND}; a name that leaves the job directory or a
 * file that is not a regular one as an {@link InvalidArgumentException} naming {@code path}.
 */
final class JobFiles {
  private JobFiles() {}

  static JobFileChunk chunk(
      JobRecord job,
      Optional<StoredPlan> plan,
      JobDirectoryRetention retention,
      JobFileReader reader,
      String path,
      long offset,
      int maxBytes)
      throws JobNotFoundFault {
    if (offset < 0) {
      throw new InvalidArgumentException("offset", "must be 0 or more, was " + offset);
    }
    if (maxBytes < 1 || maxBytes > JobOutputs.MAX_OUTPUT_CHUNK) {
      throw new InvalidArgumentException(
          "maxBytes", "must be between 1 and " + JobOutputs.MAX_OUTPUT_CHUNK + ", was " + maxBytes);
    }
    if (path == null || path.isBlank()) {
      throw new InvalidArgumentException("path", "missing");
    }
    String jobId = job.id().toString();
    if (plan.isEmpty()) {
      throw missing(jobId, path, "job " + jobId + " has no job directory");
    }
    Path dir = plan.get().jobDirectory();
    if (job.state().isFinal() && retention.removed(job, dir)) {
      throw missing(jobId, path, retention.removedNote(job));
    }
    try (SeekableByteChannel in = reader.open(dir, path)) {
      JobFileChunk chunk = new JobFileChunk();
      chunk.path = path;
      chunk.offset = offset;
      chunk.size = in.size();
      chunk.nextOffset = offset;
      if (offset < chunk.size) {
        ByteBuffer data = ByteBuffer.allocate((int) Math.min(maxBytes, chunk.size - offset));
        in.position(offset);
        while (data.hasRemaining() && in.read(data) > 0) {
          // a file can only be cut short by its job meanwhile; what was read is returned
        }
        chunk.data = Arrays.copyOf(data.array(), data.position());
        chunk.nextOffset = offset + chunk.data.length;
      }
      return chunk;
    } catch (NoSuchFileException e) {
      throw missing(jobId, path, "no file " + path + " in the job directory of job " + jobId);
    } catch (JobDirectoryReader.RefusedFileException e) {
      throw new InvalidArgumentException(
          "path", e.getFile() + " " + e.getReason() + "; the server does not read it");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + path + " of job " + jobId, e);
    }
  }

  /** listJobFiles: the entries of the job's directory ({@link JobFileReader#list}). */
  static List<JobFileEntry> list(
      JobRecord job,
      Optional<StoredPlan> plan,
      JobDirectoryRetention retention,
      JobFileReader reader)
      throws JobNotFoundFault {
    String jobId = job.id().toString();
    if (plan.isEmpty()) {
      throw missing(jobId, "", "job " + jobId + " has no job directory");
    }
    Path dir = plan.get().jobDirectory();
    if (job.state().isFinal() && retention.removed(job, dir)) {
      throw missing(jobId, "", retention.removedNote(job));
    }
    try {
      return reader.list(dir);
    } catch (NoSuchFileException e) {
      // not made yet (a queued job) or removed by hand: nothing to list
      return List.of();
    } catch (UnsupportedOperationException e) {
      throw new InvalidArgumentException(
          "jobId", e.getMessage() + "; gantry get ID PATH fetches a file by its name");
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the job directory of job " + jobId, e);
    }
  }

  @SuppressWarnings(
      "unused") // path: named by the message already; kept for the call sites' symmetry
  private static JobNotFoundFault missing(String jobId, String path, String message) {
    return new JobNotFoundFault(message, new FaultDetail("FILE_NOT_FOUND", message, jobId, null));
  }
}
