package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlType;

/**
 * One user's or project's use in an {@link AccountingReport}. Core-seconds are allocated cores
 * times the program's wall time; CPU seconds count only the jobs whose backend reported them
 * ({@code jobsWithCpuTime}).
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "AccountingLine",
    propOrder = {
      "key",
      "jobs",
      "coreSeconds",
      "cpuSeconds",
      "jobsWithCpuTime",
      "tasks",
      "bytesIn",
      "bytesOut"
    })
public class AccountingLine {
  /** The user's name, or the project; absent for jobs without a project. */
  public String key;

  public long jobs;

  public double coreSeconds;

  public double cpuSeconds;

  public long jobsWithCpuTime;

  public long tasks;

  public long bytesIn;

  public long bytesOut;
}
