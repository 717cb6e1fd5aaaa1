package io.gantry.dispatcher.internal;

import io.gantry.dispatcher.DetachedSupervision;
import io.gantry.dispatcher.LaunchException;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.dispatcher.RunningJob;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts each job under its own {@code gantry-stepd} (node-programs/stepd), which outlives the
 * server, and follows it ({@link DetachedJob}):
 *
 * <ol>
 *   <li>The supervisor gets the launcher's whole argument array after {@code --}, its first word
 *       resolved here on the server's PATH (the supervisor does no lookup of its own), and the
 *       job's streams, directory and environment as a child of the server would.
 *   <li>Its pid and kernel start time are the job's reference ({@code stepd:PID:TICKS}): stored by
 *       the server, they find the same supervisor again after a restart, never a process that
 *       reused the pid.
 *   <li>Before the program can start, it writes its own pid and start time to {@code
 *       STATUS_DIR/JOBID.started}: a server stopped after the start but before it stored the
 *       reference finds the job again by its id ({@link #startedReference}).
 *   <li>It writes the job's end to {@code STATUS_DIR/JOBID.status}; the directory is created 0700,
 *       the server's alone, and is not inside any sandbox.
 * </ol>
 */
public final class StepdSupervisor implements JobStarter {
  /** How every reference of a job started here begins. */
  public static final String REFERENCE_PREFIX = "stepd:";

  private static final Pattern REFERENCE = Pattern.compile("stepd:(\\d{1,10}):(\\d{1,20})");
  private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Logger log = LoggerFactory.getLogger(StepdSupervisor.class);

  private final DetachedSupervision supervision;
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-stepd-poll");
            t.setDaemon(true);
            return t;
          });
  private final Duration pollInterval;
  private volatile boolean closed;

  public StepdSupervisor(DetachedSupervision supervision) {
    this(supervision, DetachedJob.POLL_INTERVAL);
  }

  /** With another poll interval: a test shows that a child's end is seen without the poll. */
  StepdSupervisor(DetachedSupervision supervision, Duration pollInterval) {
    this.supervision = supervision;
    this.pollInterval = pollInterval;
  }

  @Override
  public RunningJob start(
      LaunchSpec spec,
      List<String> argv,
      Map<String, String> environment,
      Duration wallTimeGrace,
      int wrapperDepth)
      throws LaunchException {
    if (closed) {
      throw new IllegalStateException("job " + spec.jobId() + ": the launcher is closed");
    }
    JobProcess.requireWorkingDirectory(spec);
    Path status = statusFile(spec.jobId());
    ProcessBuilder builder =
        JobProcess.builder(
            spec, command(spec, argv, status, wallTimeGrace, wrapperDepth), environment);
    Process process;
    try {
      prepareStatusDirectory();
      Files.deleteIfExists(status); // a job id is never reused; this is a leftover of a crash
      Files.deleteIfExists(startedFile(spec.jobId()));
      process = builder.start();
    } catch (IOException e) {
      throw new LaunchException(
          "job " + spec.jobId() + ": could not start the job supervisor: " + e.getMessage(), e);
    }
    long ticks = ProcStat.startTicks(process.pid()).orElse(0); // 0: ended already, see DetachedJob
    log.info("job {}: started under gantry-stepd pid {}: {}", spec.jobId(), process.pid(), argv);
    DetachedJob job = follow(spec.jobId(), process.pid(), ticks);
    // the supervisor writes the status file before it exits: its exit is the job's end, seen at
    // once (the JDK's reaper waits for its child); the poll stays for supervisors of an earlier
    // server, which are no child of this one
    var unused = process.onExit().thenRun(() -> job.checkNow(poller));
    return job;
  }

  /** The job an earlier server started here, by its reference. */
  public RunningJob reattach(String jobId, String reference) {
    Matcher m = REFERENCE.matcher(reference);
    if (!m.matches() || !JOB_ID.matcher(jobId).matches()) {
      throw new IllegalArgumentException(
          "job " + jobId + ": '" + reference + "' is not a job supervisor's reference");
    }
    log.info("job {}: following its supervisor (pid {}) again", jobId, m.group(1));
    return follow(jobId, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }

  /**
   * The reference of the job's supervisor as the supervisor itself recorded it at its start, for a
   * job whose reference the server did not store (it stopped in between); empty when no supervisor
   * of that job started (its program never ran).
   */
  public Optional<String> startedReference(String jobId) {
    if (!JOB_ID.matcher(jobId).matches()) {
      return Optional.empty();
    }
    Path file = startedFile(jobId);
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > 4096) {
        return Optional.empty();
      }
      Properties record = new Properties();
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        record.load(in);
      }
      String reference =
          REFERENCE_PREFIX + record.getProperty("pid") + ":" + record.getProperty("start_ticks");
      if (!"gantry-stepd-started-1".equals(record.getProperty("format"))
          || !jobId.equals(record.getProperty("job"))
          || !REFERENCE.matcher(reference).matches()) {
        log.warn("job {}: its supervisor's start record {} is not one; ignored", jobId, file);
        return Optional.empty();
      }
      return Optional.of(reference);
    } catch (IOException | IllegalArgumentException e) {
      log.warn("job {}: cannot read its supervisor's start record: {}", jobId, e.toString());
      return Optional.empty();
    }
  }

  /** Deletes a job's status file and start record once the server has recorded its end. */
  public void forget(String jobId) {
    if (!JOB_ID.matcher(jobId).matches()) {
      return;
    }
    try {
      Files.deleteIfExists(statusFile(jobId));
      Files.deleteIfExists(startedFile(jobId));
    } catch (IOException e) {
      log.warn("job {}: cannot delete its supervisor's status file: {}", jobId, e.toString());
    }
  }

  private DetachedJob follow(String jobId, long pid, long ticks) {
    DetachedJob job = new DetachedJob(jobId, pid, ticks, statusFile(jobId));
    job.follow(poller, pollInterval);
    return job;
  }

  private List<String> command(
      LaunchSpec spec, List<String> argv, Path status, Duration grace, int wrapperDepth)
      throws LaunchException {
    List<String> command = new ArrayList<>();
    command.add(supervision.program().toString());
    command.addAll(List.of("--job", spec.jobId(), "--status", status.toString()));
    command.addAll(List.of("--started", startedFile(spec.jobId()).toString()));
    command.addAll(List.of("--grace-ms", Long.toString(grace.toMillis())));
    if (spec.wallTimeLimit() != null) {
      command.addAll(List.of("--wall-time-ms", Long.toString(spec.wallTimeLimit().toMillis())));
    }
    command.addAll(List.of("--wrapper-depth", Integer.toString(wrapperDepth), "--"));
    command.add(onServerPath(spec, argv.get(0)));
    command.addAll(argv.subList(1, argv.size()));
    return command;
  }

  /** The program as a child of the server would find it: on the server's PATH, not the job's. */
  private static String onServerPath(LaunchSpec spec, String program) throws LaunchException {
    if (program.startsWith("/")) {
      return program;
    }
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (candidate.isAbsolute()
          && Files.isRegularFile(candidate)
          && Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new LaunchException(
        "job " + spec.jobId() + ": " + program + " was not found on the server's PATH");
  }

  private Path statusFile(String jobId) {
    if (!JOB_ID.matcher(jobId).matches()) {
      throw new IllegalArgumentException("'" + jobId + "' cannot name a status file");
    }
    return supervision.statusDirectory().resolve(jobId + ".status");
  }

  private Path startedFile(String jobId) {
    return statusFile(jobId).resolveSibling(jobId + ".started");
  }

  private void prepareStatusDirectory() throws IOException {
    Path dir = supervision.statusDirectory();
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  /** Stops following; the supervisors and their jobs run on, for the next server to follow. */
  @Override
  public void close() {
    closed = true;
    poller.shutdownNow();
  }
}
