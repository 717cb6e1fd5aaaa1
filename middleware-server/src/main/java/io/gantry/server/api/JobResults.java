package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** What a job moved: its stage-in manifest and its stage-out summary. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobResults",
    propOrder = {"jobId", "state", "stagedIn", "stagedOut"})
public class JobResults {
  @XmlElement(required = true)
  public String jobId;

  @XmlElement(required = true)
  public JobStateName state;

  @XmlElement(name = "stagedIn")
  public List<StagedFileInfo> stagedIn = new ArrayList<>();

  @XmlElement(name = "stagedOut")
  public List<StagedFileInfo> stagedOut = new ArrayList<>();
}
