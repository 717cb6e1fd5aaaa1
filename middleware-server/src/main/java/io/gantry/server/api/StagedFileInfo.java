package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlType;

/** One data movement of a job: where from, where to, how much, and its checksum. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "StagedFile",
    propOrder = {"step", "source", "target", "rows", "bytes", "checksum", "seconds"})
public class StagedFileInfo {
  /** The staging step, e.g. "SQLQueryDataStaging[2]". */
  public String step;

  /** A data source and statement, or a remote host and path; never a secret. */
  public String source;

  public String target;
  public Long rows;
  public long bytes;

  /** Algorithm and value, e.g. "sha256:ab12...". */
  public String checksum;

  public double seconds;
}
