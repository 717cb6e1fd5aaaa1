package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** One job of a chain run again by resubmitChain: the stage, the job it was, the job it is now. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "RerunStage",
    propOrder = {"stage", "originalJobId", "newJobId"})
public class RerunStage {
  /**
   * The job's name (its JobName), which is the stage's name in the chain; absent if it has none.
   */
  public String stage;

  @XmlElement(required = true)
  public String originalJobId;

  @XmlElement(required = true)
  public String newJobId;

  public RerunStage() {}

  public RerunStage(String stage, String originalJobId, String newJobId) {
    this.stage = stage;
    this.originalJobId = originalJobId;
    this.newJobId = newJobId;
  }
}
