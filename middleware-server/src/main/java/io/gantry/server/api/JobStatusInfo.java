package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;
import java.util.List;

/** Where a job stands: state, what it is doing now, when, and why it failed if it did. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobStatus",
    propOrder = {
      "jobId",
      "name",
      "owner",
      "state",
      "phase",
      "submitted",
      "started",
      "finished",
      "exitCode",
      "failureReason",
      "notFound",
      "reason",
      "parameters",
      "resubmittedFrom",
      "schedule",
      "scheduledFor",
      "failedTasks"
    })
public class JobStatusInfo {
  @XmlElement(required = true)
  public String jobId;

  public String name;

  /** Absent only in a {@link #notFound} answer, as are {@link #state} and {@link #submitted}. */
  public String owner;

  public JobStateName state;

  /** What the job is doing now, e.g. "staging group 2 of 3, 1200 rows". */
  public String phase;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant submitted;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant started;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant finished;

  /** The program's exit code once it ended; 128 + n when it was ended by signal n. */
  public Integer exitCode;

  /** For FAILED, KILLED and CANCELLED: what happened, in words a user can act on. */
  public String failureReason;

  /**
   * True in a {@code getJobStatuses} answer for an id that names no job the caller may see (unknown
   * and other users' jobs look alike); then only {@link #jobId} is set. Appended last and optional,
   * so clients built before it read every other answer as before.
   */
  public Boolean notFound;

  /**
   * For a QUEUED job the server keeps back, what it waits for, as Slurm's Reason column says it:
   * {@code Dependency(after:ID,afterany:ID)} or {@code JobHeldUser (held by NAME)}; absent when the
   * job waits for nothing but its turn. (A dependency that can never be satisfied fails the job:
   * its {@link #failureReason} begins {@code DependencyNeverSatisfied}.) Appended last and
   * optional.
   */
  public String reason;

  // ---- job templates, resubmission and schedules (issue 18): appended, optional ----

  /** The values the job's template was filled with (getJobStatus only; lists leave it out). */
  @XmlElement(name = "parameter")
  public List<ParameterValue> parameters;

  /** The job this one is a resubmission of. */
  public String resubmittedFrom;

  /** The name of the schedule that submitted the job. */
  public String schedule;

  /** The time the schedule submitted it for. */
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant scheduledFor;

  /**
   * For a task farm whose every task became final: how many of its tasks failed or were lost (0
   * when none did). Such a farm SUCCEEDED all the same (its results and stage-out are done); {@code
   * gantry wait} exits 6 when this is above 0. Absent for every other job. Appended last and
   * optional.
   */
  public Integer failedTasks;
}
