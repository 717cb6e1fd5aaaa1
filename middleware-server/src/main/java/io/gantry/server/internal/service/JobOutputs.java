package io.gantry.server.internal.service;

import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import io.gantry.server.api.JobFileChunk;
import io.gantry.server.api.JobFileEntry;
import io.gantry.server.api.JobNotFoundFault;
import io.gantry.server.api.OutputChunk;
import io.gantry.server.api.OutputStreamName;
import io.gantry.server.internal.datadirectory.JobDirectoryRetention;
import io.gantry.server.internal.jobstore.JobRecord;
import io.gantry.server.internal.jobstore.JobStore;
import io.gantry.server.internal.jobstore.StoredPlan;
import io.gantry.server.internal.plan.JobPlanner;
import io.gantry.server.internal.plan.StoredPlans;
import io.gantry.staging.JobDirectoryReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a job left in its directory, read for its owner: stdout and stderr, its files, and where
 * they are (the plan stored at submission). Reads here or, for jobs whose directories are on a
 * cluster, over SFTP ({@link JobFileReader}).
 */
public final class JobOutputs {
  private static final Logger log = LoggerFactory.getLogger(JobOutputs.class);

  /** Largest piece of output returned by one call. */
  public static final int MAX_OUTPUT_CHUNK = 1 << 20;

  private final JobStore store;
  private final JsdlParser parser;
  private final JobPlanner planner;
  private final JobDirectoryRetention retention;

  /** Where job directories are read: here, or on the cluster for jobs whose directory is there. */
  private final JobFileReader jobFiles;

  public JobOutputs(
      JobStore store,
      JsdlParser parser,
      JobPlanner planner,
      JobDirectoryRetention retention,
      JobFileReader jobFiles) {
    this.store = store;
    this.parser = parser;
    this.planner = planner;
    this.retention = retention;
    this.jobFiles = jobFiles;
  }

  /** getJobFile: a piece of a file of the job's directory. */
  public JobFileChunk file(JobRecord job, String path, long offset, int maxBytes)
      throws JobNotFoundFault {
    return JobFiles.chunk(job, planOf(job), retention, jobFiles, path, offset, maxBytes);
  }

  /** listJobFiles: the files of the job's directory. */
  public List<JobFileEntry> files(JobRecord job) throws JobNotFoundFault {
    return JobFiles.list(job, planOf(job), retention, jobFiles);
  }

  /**
   * Opens a file of the job's directory, such as a result the program wrote, for in-process readers
   * (the web application's results page). Empty when it is not there (yet), when the job's
   * directory has been removed, or when it is not a regular file inside the directory: the job's
   * program may have replaced it with a link to one of the server's files, and the server reads
   * with more rights than the job ({@link JobDirectoryReader}).
   */
  public Optional<InputStream> open(JobRecord job, String relativePath) {
    Optional<Path> dir = jobDirectory(job);
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Channels.newInputStream(jobFiles.open(dir.get(), relativePath)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      log.warn("job {}: {} not read: {}", job.id(), relativePath, e.getMessage());
      return Optional.empty();
    }
  }

  /** Whether {@link #open} would open the file now. */
  public boolean has(JobRecord job, String relativePath) {
    Optional<InputStream> in = open(job, relativePath);
    in.ifPresent(JobOutputs::closeQuietly);
    return in.isPresent();
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // nothing was read or written through it
    }
  }

  private Optional<Path> jobDirectory(JobRecord job) {
    return planOf(job).map(StoredPlan::jobDirectory);
  }

  /**
   * The job's plan as stored at submission: where its files are does not depend on today's
   * configuration, and no read parses the job description again. A job stored before plans were
   * kept is planned once, on its first read, and that plan is stored for every later one.
   */
  public Optional<StoredPlan> planOf(JobRecord job) {
    Optional<StoredPlan> stored = store.plan(job.id());
    return stored.isPresent() ? stored : planStoredJob(job);
  }

  private Optional<StoredPlan> planStoredJob(JobRecord job) {
    Map<String, String> values = store.origin(job.id()).parameters();
    ParseResult parsed =
        store.jobDescription(job.id()).map(xml -> parser.parse(xml, values)).orElse(null);
    if (parsed == null || !parsed.isValid()) {
      log.warn(
          "job {}: stored before its plan was kept, and its description no longer parses; its files"
              + " cannot be found",
          job.id());
      return Optional.empty();
    }
    StoredPlan plan = StoredPlans.of(planner.filesOf(job.id(), job.owner(), parsed.validJob()));
    if (store.recordPlan(job.id(), plan)) {
      log.info("job {}: stored before its plan was kept; planned once now and stored", job.id());
      return Optional.of(plan);
    }
    return store.plan(job.id()); // another read stored it first: that one holds
  }

  /** getJobOutput's range: asked of the request before the job is looked up. */
  public static void checkOutputRange(long offset, int maxBytes) {
    if (offset < 0) {
      throw new InvalidArgumentException("offset", "must be 0 or more, was " + offset);
    }
    if (maxBytes < 1 || maxBytes > MAX_OUTPUT_CHUNK) {
      throw new InvalidArgumentException(
          "maxBytes", "must be between 1 and " + MAX_OUTPUT_CHUNK + ", was " + maxBytes);
    }
  }

  /** getJobOutput: a piece of the job's stdout or stderr, from its stored plan. */
  public OutputChunk output(JobRecord job, OutputStreamName stream, long offset, int maxBytes) {
    String jobId = job.id().toString();
    OutputChunk chunk = new OutputChunk();
    chunk.stream = stream == null ? OutputStreamName.STDOUT : stream;
    chunk.offset = offset;
    chunk.nextOffset = chunk.offset;
    chunk.size = 0L;
    boolean ended = job.state().isFinal();
    chunk.complete = ended;
    Optional<StoredPlan> plan =
        planOf(job).filter(StoredPlan::runsProgram); // staging only: no output
    if (plan.isEmpty()) {
      return chunk;
    }
    Path dir = plan.get().jobDirectory();
    String file =
        chunk.stream == OutputStreamName.STDERR ? plan.get().stderr() : plan.get().stdout();
    if (ended && retention.removed(job, dir)) {
      chunk.note = retention.removedNote(job);
      return chunk;
    }
    int want = maxBytes;
    try (SeekableByteChannel in = jobFiles.open(dir, file)) {
      long size = in.size();
      chunk.size = size;
      if (chunk.offset < size) {
        ByteBuffer data = ByteBuffer.allocate((int) Math.min(want, size - chunk.offset));
        in.position(chunk.offset);
        while (data.hasRemaining() && in.read(data) > 0) {
          // a file can only be cut short by its job meanwhile; what was read is returned
        }
        chunk.data = java.util.Arrays.copyOf(data.array(), data.position());
        chunk.nextOffset = chunk.offset + chunk.data.length;
      }
      chunk.complete = ended && chunk.nextOffset >= size;
    } catch (NoSuchFileException e) {
      return chunk; // not written (yet)
    } catch (JobDirectoryReader.RefusedFileException e) {
      log.warn("job {}: output {} not read: {}", jobId, e.getFile(), e.getReason());
      chunk.note =
          "the job's "
              + chunk.stream.name().toLowerCase(java.util.Locale.ROOT)
              + " file "
              + e.getFile()
              + " "
              + e.getReason()
              + "; the server does not read it";
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the output of job " + jobId, e);
    }
    return chunk;
  }
}
