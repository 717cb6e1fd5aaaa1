package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** The stage-in cache's entries, most recently used first, and its size limit. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "StageInCacheList",
    propOrder = {"enabled", "maxBytes", "totalBytes", "entries"})
public class StageInCacheList {
  /** False when the server runs without a cache ({@code cache.max-bytes=0}). */
  public boolean enabled;

  /** {@code cache.max-bytes}. */
  public long maxBytes;

  /** The entries' bytes together. */
  public long totalBytes;

  @XmlElement(name = "entry")
  public List<StageInCacheEntry> entries = new ArrayList<>();
}
