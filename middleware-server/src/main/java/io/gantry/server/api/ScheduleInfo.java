package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;
import java.util.List;

/** A schedule: a job template submitted at every time of a cron expression, as its owner. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "Schedule",
    propOrder = {
      "scheduleId",
      "name",
      "owner",
      "cron",
      "timeZone",
      "missedRuns",
      "paused",
      "created",
      "nextTime",
      "lastTime",
      "lastJobId",
      "lastNote",
      "parameters",
      "calendar"
    })
public class ScheduleInfo {
  @XmlElement(required = true)
  public String scheduleId;

  @XmlElement(required = true)
  public String name;

  @XmlElement(required = true)
  public String owner;

  /** A Unix cron expression: minute hour day-of-month month day-of-week. */
  @XmlElement(required = true)
  public String cron;

  /** The IANA time zone the expression is read in, e.g. Europe/London. */
  @XmlElement(required = true)
  public String timeZone;

  @XmlElement(required = true)
  public MissedRunsName missedRuns;

  public boolean paused;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant created;

  /** The next time it submits a job; absent while paused. */
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant nextTime;

  /** The last scheduled time dealt with (a job submitted, or skipped). */
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant lastTime;

  /** The job submitted for {@link #lastTime}. */
  public String lastJobId;

  /** What happened at {@link #lastTime} when no job was submitted, e.g. why it was refused. */
  public String lastNote;

  /** The values given with the schedule, as written (before the scheduled time fills them). */
  @XmlElement(name = "parameter")
  public List<ParameterValue> parameters;

  /**
   * The holiday calendar whose dates the schedule skips (a calendar.NAME of the server's settings);
   * absent: none. {@link #nextTime} is then the next time after its holidays.
   */
  public String calendar;
}
