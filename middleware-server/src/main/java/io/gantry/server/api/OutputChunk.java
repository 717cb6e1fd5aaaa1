package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * A byte range of a job's output. Bytes, not text: a range may end inside a multi-byte character,
 * and the next chunk completes it.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "OutputChunk",
    propOrder = {"stream", "offset", "nextOffset", "data", "complete", "size", "note"})
public class OutputChunk {
  @XmlElement(required = true)
  public OutputStreamName stream;

  public long offset;
  public long nextOffset;

  @XmlElement(required = true)
  public byte[] data = new byte[0];

  /** True when the job has ended and nothing lies beyond {@link #nextOffset}. */
  public boolean complete;

  /**
   * How many bytes the stream holds at the moment of the call, so that a client can read its end
   * without scanning (it may still grow while the job runs); absent from older servers.
   */
  public Long size;

  /**
   * Why there are no bytes where a client would expect some, in words for a user: the job's
   * directory was removed after the retention period, or the file is not one the server reads (a
   * link, a FIFO); absent otherwise and from older servers.
   */
  public String note;

  public long getNextOffset() {
    return nextOffset;
  }
}
