package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * A byte range of a file in a job's directory (getJobFile), read as getJobOutput reads the output:
 * only a regular file inside the job directory, never through a link. Callers download a large file
 * by passing back {@link #nextOffset} until {@link #nextOffset} reaches {@link #size}.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "JobFileChunk",
    propOrder = {"path", "offset", "nextOffset", "size", "data"})
public class JobFileChunk {
  /** The file, relative to the job directory, as asked. */
  @XmlElement(required = true)
  public String path;

  public long offset;
  public long nextOffset;

  /** The file's size at the moment of the call. */
  public long size;

  @XmlElement(required = true)
  public byte[] data = new byte[0];
}
