package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** What one take answers: the completions, oldest first, and the session after taking them. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "WorkerCompletions",
    propOrder = {"session", "completions"})
public class WorkerCompletions {
  @XmlElement(required = true)
  public WorkerSessionInfo session;

  @XmlElement(name = "completion")
  public List<WorkerCompletion> completions = new ArrayList<>();
}
