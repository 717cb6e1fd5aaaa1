package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** The machine-readable part of a fault: a stable code, and what it concerns. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "FaultDetail",
    propOrder = {"code", "message", "jobId", "state"})
public class FaultDetail {
  /** Stable, e.g. JOB_NOT_FOUND, JOB_STATE, ACCESS_DENIED, LIMIT_EXCEEDED. */
  @XmlElement(required = true)
  public String code;

  @XmlElement(required = true)
  public String message;

  public String jobId;
  public JobStateName state;

  public FaultDetail() {}

  public FaultDetail(String code, String message, String jobId, JobStateName state) {
    this.code = code;
    this.message = message;
    this.jobId = jobId;
    this.state = state;
  }
}
