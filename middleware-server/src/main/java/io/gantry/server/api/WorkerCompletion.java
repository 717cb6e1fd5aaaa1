package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** A completion message: how one submitted message ended. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "WorkerCompletion",
    propOrder = {"messageId", "state", "output", "truncated", "attempts", "worker"})
public class WorkerCompletion {
  /** The id submitWorkerMessages answered for the message. */
  public long messageId;

  /**
   * answered (output is the worker's answer), lost (its worker died every time it ran it) or
   * abandoned (the session broke first).
   */
  @XmlElement(required = true)
  public String state;

  /** The worker's answer line, unescaped; empty unless answered. */
  @XmlElement(required = true)
  public String output;

  /** The answer was longer than worker-session.max-message-bytes and was cut there. */
  public boolean truncated;

  /** Times the message was given to a worker. */
  public int attempts;

  /** Which worker (1, 2, ...) answered it or last had it; 0 when none did. */
  public int worker;
}
