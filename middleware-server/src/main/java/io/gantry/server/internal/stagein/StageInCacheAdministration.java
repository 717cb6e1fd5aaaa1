package io.gantry.server.internal.stagein;

import io.gantry.server.api.AccessDeniedFault;
import io.gantry.server.api.FaultDetail;
import io.gantry.server.api.StageInCacheEntry;
import io.gantry.server.api.StageInCacheList;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import io.gantry.staging.StageInCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SOAP face of the stage-in cache ({@code listStageInCache}, {@code clearStageInCache}):
 * administrators only, since an entry names data sources and statements of every user's jobs. A
 * plain user gets the AccessDenied fault. The same as {@code gantry-server cache list|clear} on the
 * server host, without a login there.
 */
public final class StageInCacheAdministration {
  private static final Logger log = LoggerFactory.getLogger(StageInCacheAdministration.class);

  /** Null when the server runs without a cache ({@code cache.max-bytes=0}). */
  private final StageInCache cache;

  public StageInCacheAdministration(StageInCache cache) {
    this.cache = cache;
  }

  public StageInCacheList list(Caller caller) throws AccessDeniedFault {
    requireAdmin(caller, "list");
    StageInCacheList answer = new StageInCacheList();
    if (cache == null) {
      return answer;
    }
    answer.enabled = true;
    answer.maxBytes = cache.maxBytes();
    for (StageInCache.Entry e : cache.list()) {
      StageInCacheEntry entry = new StageInCacheEntry();
      entry.key = e.key();
      entry.bytes = e.bytes();
      entry.rows = e.rows();
      entry.created = e.created();
      entry.lastUsed = e.lastUsed();
      entry.source = e.source();
      entry.detail = e.detail();
      entry.inUse = e.inUse();
      answer.entries.add(entry);
      answer.totalBytes += e.bytes();
    }
    return answer;
  }

  public int clear(Caller caller, String key) throws AccessDeniedFault {
    requireAdmin(caller, "clear");
    if (cache == null) {
      return 0;
    }
    String one = key == null || key.isBlank() ? null : key.strip();
    if (one != null && !one.matches("[0-9a-f]{64}")) {
      throw new InvalidArgumentException(
          "key", "must be an entry's key as listStageInCache gives it (64 hex digits)");
    }
    int removed = one == null ? cache.clear() : (cache.remove(one) ? 1 : 0);
    log.info(
        "stage-in cache: {} removed {} entr{} ({})",
        caller.name(),
        removed,
        removed == 1 ? "y" : "ies",
        one == null ? "clear all" : "key " + one);
    return removed;
  }

  private static void requireAdmin(Caller caller, String what) throws AccessDeniedFault {
    if (!caller.admin()) {
      String message = "only administrators may " + what + " the stage-in cache";
      throw new AccessDeniedFault(message, new FaultDetail("ACCESS_DENIED", message, null, null));
    }
  }
}
