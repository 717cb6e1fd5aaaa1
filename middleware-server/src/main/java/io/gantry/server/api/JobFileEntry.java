package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * One entry of a job's directory (listJobFiles): a regular file with its size, or a link or other
 * entry, which is listed but never followed or read (getJobFile refuses it).
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobFileEntry",
    propOrder = {"path", "size", "type"})
public class JobFileEntry {
  /** Relative to the job directory, {@code /}-separated: what getJobFile takes. */
  @XmlElement(required = true)
  public String path;

  /** The size in bytes of a regular file; 0 for the others. */
  public long size;

  /** {@code file}, {@code link} or {@code other} (a socket, a device, a FIFO). */
  @XmlElement(required = true)
  public String type;

  public JobFileEntry() {}

  public JobFileEntry(String path, long size, String type) {
    this.path = path;
    this.size = size;
    this.type = type;
  }
}
