package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;

/** A session of long-lived workers (docs/task-farms.md, "Sessions") at one moment. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "WorkerSession",
    propOrder = {
      "sessionId",
      "owner",
      "program",
      "workers",
      "runningWorkers",
      "state",
      "queued",
      "inFlight",
      "completionsWaiting",
      "answered",
      "failed",
      "restarts",
      "opened",
      "lastUsed",
      "problem"
    })
public class WorkerSessionInfo {
  @XmlElement(required = true)
  public String sessionId;

  @XmlElement(required = true)
  public String owner;

  /** What the workers run: the application's name, or the executable. */
  @XmlElement(required = true)
  public String program;

  /** Workers asked for at open. */
  public int workers;

  /** Workers running now. */
  public int runningWorkers;

  /** starting, open, broken (no worker left; see problem) or closed. */
  @XmlElement(required = true)
  public String state;

  /** Messages waiting for a worker. */
  public int queued;

  /** Messages a worker has and has not answered yet. */
  public int inFlight;

  /** Completions ready to take. */
  public int completionsWaiting;

  /** Messages answered since the session opened. */
  public long answered;

  /** Messages lost or abandoned since the session opened. */
  public long failed;

  /** Times a worker was started again after it ended. */
  public int restarts;

  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant opened;

  /** The last time its owner submitted to it or took from it. */
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant lastUsed;

  /** Why the session is broken, or why a worker was last not replaced; absent otherwise. */
  public String problem;
}
