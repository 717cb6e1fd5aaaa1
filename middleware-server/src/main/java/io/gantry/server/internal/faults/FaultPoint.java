package io.gantry.server.internal.faults;

import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The named points of a job's life at which a test may have the server stop dead, as a crash or a
 * {@code kill -9} does (docs/reliability.md, "A fault at every step").
 *
 * <p>Inert unless the JVM is started with the system property {@link #PROPERTY} naming one point:
 * then the first time any job reaches that point the server halts ({@link Runtime#halt}: no
 * shutdown hook, nothing flushed or closed) with status {@link #HALT_STATUS}. The property is read
 * once, when this class loads; only whoever starts the server's JVM can set it (it is no setting of
 * the configuration file and nothing a user sends reaches it), and a server started with it says so
 * in its log. An unknown name refuses the start, so a misspelt point never passes a test unarmed.
 * The same points can pause a job's thread instead, for a test to take something away there ({@link
 * FaultPause}).
 */
public enum FaultPoint {
  /** The job is stored and acknowledged to nobody yet; the scheduler has not seen it. */
  JOB_STORED("job.stored"),
  /** A stage-in group starts. */
  STAGE_IN_GROUP_STARTED("stage-in.group-started"),
  /** A stage-in step finished: its file is in place. */
  STAGE_IN_STEP_FINISHED("stage-in.step-finished"),
  /** The stage-in's manifest is stored; the job is not STAGED yet. */
  STAGE_IN_RECORDED("stage-in.recorded"),
  /** RUNNING is stored; the program is not started. */
  LAUNCH_REQUESTED("launch.requested"),
  /** The program (or its supervisor) is started; its reference is not stored. */
  PROGRAM_STARTED("launch.program-started"),
  /** The program runs and its reference is stored. */
  PROGRAM_RUNNING("program.running"),
  /** The program ended; its end is not stored. */
  PROGRAM_EXITED("program.exited"),
  /** A stage-out group starts. */
  STAGE_OUT_GROUP_STARTED("stage-out.group-started"),
  /** A stage-out step wrote its rows and its ledger row; its transaction is not committed. */
  STAGE_OUT_STEP_COMMITTING("stage-out.step-committing"),
  /** A stage-out step committed (a step the ledger skipped does not count). */
  STAGE_OUT_STEP_COMMITTED("stage-out.step-committed"),
  /** The stage-out's manifest is stored; the job is not final yet. */
  STAGE_OUT_RECORDED("stage-out.recorded"),
  /** The final state is stored, with its notifications in the outbox; DeleteOnTermination done. */
  JOB_FINAL("job.final"),
  /** A schedule's time is claimed ("submitting"); its job is not submitted. */
  SCHEDULE_CLAIMED("schedule.claimed"),
  /** A schedule's job is stored; the claim does not name it yet. */
  SCHEDULE_SUBMITTED("schedule.submitted");

  /** The JVM system property naming the point to halt at. */
  public static final String PROPERTY = "gantry.fault-injection.halt-at";

  /** The exit status of a halt at a fault point (as of a process killed by SIGKILL). */
  public static final int HALT_STATUS = 137;

  private static final Logger LOG = LoggerFactory.getLogger(FaultPoint.class);

  /** The armed point's name, or empty: read once, judged by {@link #announce}. */
  private static final String ARMED = System.getProperty(PROPERTY, "");

  private final String pointName;

  FaultPoint(String pointName) {
    this.pointName = pointName;
  }

  /** The point's name, as {@link #PROPERTY} gives it. */
  public String pointName() {
    return pointName;
  }

  /**
   * Halts the server here if this is the armed point, pauses it if it is a point to pause at
   * ({@link FaultPause}); does nothing otherwise.
   */
  public void reached() {
    if (FaultPause.ARMED.contains(pointName)) {
      FaultPause.pause(pointName);
    }
    if (ARMED.equals(pointName)) {
      // straight to the standard error: a logger may buffer, and the test reads which point it was
      System.err.println("gantry-server: halting at fault point " + pointName);
      System.err.flush();
      Runtime.getRuntime().halt(HALT_STATUS);
    }
  }

  /**
   * Says in the log which point is armed, if any; called once as the server starts.
   *
   * @throws IllegalArgumentException when {@link #PROPERTY} names no point (the start is refused)
   */
  public static void announce() {
    if (!FaultPause.ARMED.isEmpty()) {
      FaultPause.ARMED.forEach(FaultPoint::named);
      LOG.warn(
          "fault injection armed: this server pauses at {} ({}, {}); never in production",
          FaultPause.ARMED,
          FaultPause.PROPERTY,
          FaultPause.check());
    }
    if (ARMED.isEmpty()) {
      return;
    }
    FaultPoint armed = named(ARMED);
    LOG.warn(
        "fault injection armed: this server halts at {} ({}); never in production",
        armed.pointName,
        PROPERTY);
  }

  private static FaultPoint named(String name) {
    return Arrays.stream(values())
        .filter(p -> p.pointName.equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    PROPERTY
                        + ": unknown fault point '"
                        + name
                        + "'; known: "
                        + Arrays.stream(values()).map(FaultPoint::pointName).toList()));
  }
}
