package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** A job's audit trail, oldest entry first. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobAudit",
    propOrder = {"jobId", "owner", "entries"})
public class JobAudit {
  @XmlElement(required = true)
  public String jobId;

  @XmlElement(required = true)
  public String owner;

  @XmlElement(name = "entry")
  public List<AuditEntry> entries = new ArrayList<>();
}
