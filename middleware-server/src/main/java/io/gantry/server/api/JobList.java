package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** One page of a job listing, with the total count for paging. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobList",
    propOrder = {"total", "offset", "jobs"})
public class JobList {
  public long total;
  public int offset;

  @XmlElement(name = "job")
  public List<JobStatusInfo> jobs = new ArrayList<>();
}
