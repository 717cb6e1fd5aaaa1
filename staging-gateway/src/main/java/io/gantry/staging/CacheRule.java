package io.gantry.staging;

import java.time.Duration;

/**
 * When a stage-in result may come from the stage-in cache ({@code CacheValidity}, {@code
 * CacheKeyQuery} of a {@code SQLQueryDataStaging}).
 *
 * @param validity how long a cached result stays valid; {@link Duration#ZERO} ({@code PT0S}) never
 *     reuses one; null: no age limit (then {@code keyQuery} decides alone)
 * @param keyQuery a cheap statement whose result joins the cache key (e.g. {@code SELECT
 *     max(updated_at) FROM positions}), so a change in the data is a miss at once; or null
 */
public record CacheRule(Duration validity, String keyQuery) {
  public CacheRule {
    if (validity != null && validity.isNegative()) {
      throw new IllegalArgumentException("CacheValidity must not be negative, not " + validity);
    }
    if (keyQuery != null && keyQuery.isBlank()) {
      keyQuery = null;
    }
  }

  /** True when a cached result may be used at all: some rule given, and not {@code PT0S}. */
  public boolean enabled() {
    return (validity != null || keyQuery != null) && !Duration.ZERO.equals(validity);
  }
}
