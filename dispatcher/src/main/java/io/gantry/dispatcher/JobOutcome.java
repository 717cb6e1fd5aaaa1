package io.gantry.dispatcher;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How a job's root process ended.
 *
 * <p>{@code exitStatus} is the value {@link Process#exitValue()} reported. On Linux the JDK maps
 * death by signal N to {@code 128 + N}, the shell convention, so the decoding below is honest about
 * what it cannot know: a program that calls {@code exit(143)} on its own looks exactly like one
 * killed by SIGTERM (15), and a shell that exits 130 after Ctrl-C looks like SIGINT. We decode
 * 129..192 as a signal because that is by far the common case; {@link #describe()} says "or".
 *
 * <p>For MPI jobs the root process is {@code mpirun}; its status summarises the ranks (Open MPI
 * returns the first failing rank's exit code, or a code of its own when it aborted the job).
 *
 * @param jobId the job this outcome belongs to
 * @param exitStatus the root process's status as reported by the JDK (0..255)
 * @param wallTimeExceeded the dispatcher stopped the job because its wall-time limit ran out
 * @param killed the job was stopped on request through {@link RunningJob#terminate(Duration)}
 * @param startedAt when the root process was started
 * @param endedAt when the root process (and, after a termination, its whole tree) had ended
 * @param stopSignal the last signal the dispatcher sent to stop the job (15 SIGTERM, or 9 SIGKILL
 *     when the grace period ran out), 0 when it did not stop it. A program that catches SIGTERM and
 *     exits (mpirun exits 1) reports its own status; this says what really ended it
 * @param detail what the batch system said of the job (e.g. "Slurm: NODE_FAIL 0:0 on n1"), or null
 * @param failedTasks for a task farm whose every task became final: how many of them failed or were
 *     lost (0 when none did); null for any other job
 * @param usage what the job used, as far as its supervisor or batch system reported it
 */
public record JobOutcome(
    String jobId,
    int exitStatus,
    boolean wallTimeExceeded,
    boolean killed,
    Instant startedAt,
    Instant endedAt,
    int stopSignal,
    String detail,
    Integer failedTasks,
    Usage usage) {

  /**
   * What a job used beyond its wall time, for accounting (docs/operations.md, "Accounting").
   *
   * @param cpuTime user plus system CPU time of the job's processes, as its supervisor ({@code
   *     gantry-stepd}, from getrusage) or the batch system ({@code sacct}'s TotalCPU) reported it;
   *     null where neither did
   * @param tasks for a task farm, how many tasks it had; null for any other job
   */
  public record Usage(Duration cpuTime, Integer tasks) {
    /** Nothing reported beyond the wall time. */
    public static final Usage UNKNOWN = new Usage(null, null);

    public Usage {
      if (cpuTime != null && cpuTime.isNegative()) {
        throw new IllegalArgumentException("cpuTime < 0: " + cpuTime);
      }
    }
  }

  /** An outcome without a usage report beyond the wall time. */
  public JobOutcome(
      String jobId,
      int exitStatus,
      boolean wallTimeExceeded,
      boolean killed,
      Instant startedAt,
      Instant endedAt,
      int stopSignal,
      String detail,
      Integer failedTasks) {
    this(
        jobId,
        exitStatus,
        wallTimeExceeded,
        killed,
        startedAt,
        endedAt,
        stopSignal,
        detail,
        failedTasks,
        Usage.UNKNOWN);
  }

  /** The same outcome with {@code usage} reported. */
  public JobOutcome withUsage(Usage reported) {
    return new JobOutcome(
        jobId,
        exitStatus,
        wallTimeExceeded,
        killed,
        startedAt,
        endedAt,
        stopSignal,
        detail,
        failedTasks,
        reported);
  }

  /** Highest signal number on Linux (SIGRTMAX); anything above 128 + this is a plain exit code. */
  private static final int MAX_SIGNAL = 64;

  /** An outcome of any job but a finished task farm: no count of failed tasks. */
  public JobOutcome(
      String jobId,
      int exitStatus,
      boolean wallTimeExceeded,
      boolean killed,
      Instant startedAt,
      Instant endedAt,
      int stopSignal,
      String detail) {
    this(jobId, exitStatus, wallTimeExceeded, killed, startedAt, endedAt, stopSignal, detail, null);
  }

  /**
   * An outcome of a process this host ran and did not stop: no signal sent, no batch system to
   * quote.
   */
  public JobOutcome(
      String jobId,
      int exitStatus,
      boolean wallTimeExceeded,
      boolean killed,
      Instant startedAt,
      Instant endedAt) {
    this(jobId, exitStatus, wallTimeExceeded, killed, startedAt, endedAt, 0, null);
  }

  /** An outcome of a process this host ran, stopped (or not) with {@code stopSignal}. */
  public JobOutcome(
      String jobId,
      int exitStatus,
      boolean wallTimeExceeded,
      boolean killed,
      Instant startedAt,
      Instant endedAt,
      int stopSignal) {
    this(jobId, exitStatus, wallTimeExceeded, killed, startedAt, endedAt, stopSignal, null);
  }

  /**
   * An outcome a batch system reported: it sent the signals, {@code detail} quotes what it said.
   */
  public JobOutcome(
      String jobId,
      int exitStatus,
      boolean wallTimeExceeded,
      boolean killed,
      Instant startedAt,
      Instant endedAt,
      String detail) {
    this(jobId, exitStatus, wallTimeExceeded, killed, startedAt, endedAt, 0, detail);
  }

  public JobOutcome {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(endedAt, "endedAt");
    Objects.requireNonNull(usage, "usage");
    if (failedTasks != null && failedTasks < 0) {
      throw new IllegalArgumentException("failedTasks < 0: " + failedTasks);
    }
  }

  /** The signal that (probably) ended the root process; empty for an ordinary exit. */
  public OptionalInt terminatingSignal() {
    return exitStatus > 128 && exitStatus <= 128 + MAX_SIGNAL
        ? OptionalInt.of(exitStatus - 128)
        : OptionalInt.empty();
  }

  /** The exit code the program gave; empty when the status decodes as a signal. */
  public OptionalInt exitCode() {
    return terminatingSignal().isPresent() ? OptionalInt.empty() : OptionalInt.of(exitStatus);
  }

  /** The job ran to completion on its own and reported success. */
  public boolean succeeded() {
    return exitStatus == 0 && !wallTimeExceeded && !killed;
  }

  public Duration runTime() {
    return Duration.between(startedAt, endedAt);
  }

  /** The signal's name as {@code kill -l} prints it, with its number: "SIGTERM (signal 15)". */
  public static String signalName(int signal) {
    String name =
        switch (signal) {
          case 1 -> "SIGHUP";
          case 2 -> "SIGINT";
          case 6 -> "SIGABRT";
          case 9 -> "SIGKILL";
          case 11 -> "SIGSEGV";
          case 15 -> "SIGTERM";
          default -> "signal";
        };
    return name.equals("signal") ? "signal " + signal : name + " (signal " + signal + ")";
  }

  /**
   * The status to report for a job stopped on request: 128 + the signal that stopped it, the
   * shell's convention, whatever the program itself returned after catching it.
   */
  public int reportedStatus() {
    return killed && stopSignal > 0 ? 128 + stopSignal : exitStatus;
  }

  /** One line for the job's audit trail, e.g. "killed by signal 15 (or exit code 143)". */
  public String describe() {
    if (killed && stopSignal > 0) {
      return "stopped on request with " + signalName(stopSignal);
    }
    String how =
        terminatingSignal().isPresent()
            ? "ended by signal "
                + terminatingSignal().getAsInt()
                + " (or exit code "
                + exitStatus
                + ")"
            : "exited with code " + exitStatus;
    if (detail != null) {
      how = how + " (" + detail + ")";
    }
    if (wallTimeExceeded) {
      return "wall-time limit exceeded, stopped by the dispatcher; " + how;
    }
    return killed ? "killed on request; " + how : how;
  }
}
