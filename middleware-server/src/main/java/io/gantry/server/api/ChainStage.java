package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** One stage of a chain submitted by submitChain: its name (its JobName) and its new job's id. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "ChainStage",
    propOrder = {"stage", "jobId"})
public class ChainStage {
  @XmlElement(required = true)
  public String stage;

  @XmlElement(required = true)
  public String jobId;

  public ChainStage() {}

  public ChainStage(String stage, String jobId) {
    this.stage = stage;
    this.jobId = jobId;
  }
}
