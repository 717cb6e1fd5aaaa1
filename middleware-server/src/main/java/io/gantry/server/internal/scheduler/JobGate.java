package io.gantry.server.internal.scheduler;

import io.gantry.server.internal.jobstore.JobId;
import java.util.List;

/**
 * Whether a QUEUED job may begin its stage-in now, or must wait (for other jobs, or a hold), or can
 * never run. The meta-scheduler asks on its control thread when the job is submitted or recovered,
 * and asks a waiting job again only when one of the jobs it {@linkplain #awaited awaits} changes
 * state, or its own hold or state changes.
 */
public interface JobGate {

  /** The answer for one job. */
  record Verdict(Kind kind, String reason) {
    /** Open: nothing to wait for. */
    public static final Verdict OPEN = new Verdict(Kind.OPEN, null);

    public enum Kind {
      OPEN,
      WAIT,
      NEVER
    }

    /** Waits; {@code reason} is what the job waits for, as Slurm's Reason column says it. */
    public static Verdict waiting(String reason) {
      return new Verdict(Kind.WAIT, reason);
    }

    /** Can never run; {@code reason} is the failure a user reads. */
    public static Verdict never(String reason) {
      return new Verdict(Kind.NEVER, reason);
    }
  }

  Verdict check(JobId job);

  /**
   * The jobs whose state a waiting job's verdict depends on; asked once, when the job begins to
   * wait. A verdict that could change for any other reason than those jobs' states or the job's own
   * hold would never be asked again.
   */
  default List<JobId> awaited(JobId job) {
    return List.of();
  }

  /** A gate that lets every job through: a server without dependencies or holds. */
  static JobGate open() {
    return job -> Verdict.OPEN;
  }
}
