package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;

/**
 * One entry of the server's stage-in cache: an SQL extract or a remote file kept for later jobs
 * that ask the same (staging-gateway/README.md, "Stage-in cache"). Administrators only.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "StageInCacheEntry",
    propOrder = {"key", "bytes", "rows", "created", "lastUsed", "source", "detail", "inUse"})
public class StageInCacheEntry {
  /** The content key (SHA-256, hex): what {@code clearStageInCache} takes to remove one entry. */
  @XmlElement(required = true)
  public String key;

  public long bytes;

  /** Data rows of an SQL extract; -1 for a remote file copied as bytes. */
  public long rows;

  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant created;

  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant lastUsed;

  /** The data source or remote host, without secrets. */
  @XmlElement(required = true)
  public String source;

  /** The statement, or the remote path with the size and modification time it was fetched at. */
  @XmlElement(required = true)
  public String detail;

  /** Linked into a job directory, so never evicted while that job's directory exists. */
  public boolean inUse;
}
