package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlEnum;
import jakarta.xml.bind.annotation.XmlType;

/** A job's lifecycle state as the API names it (design: "Job lifecycle"). */
@XmlType(name = "JobState")
@XmlEnum
public enum JobStateName {
  QUEUED,
  STAGING_IN,
  STAGED,
  RUNNING,
  STAGING_OUT,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  KILLED
}
