package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** A task message for a session's workers: one input line (any text) and its priority. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "WorkerMessage",
    propOrder = {"input", "priority"})
public class WorkerMessage {
  /** What the worker reads; escaped onto one line (docs/task-farms.md, "Sessions"). */
  @XmlElement(required = true)
  public String input;

  /** high or normal (the default): every waiting high message goes out before a normal one. */
  public String priority;
}
