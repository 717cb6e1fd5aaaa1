package io.gantry.server.internal.plan;

import io.gantry.staging.CacheRule;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.GregorianCalendar;

/**
 * A job's stage-in cache elements as the gateway's {@link CacheRule}: {@code CacheValidity} of an
 * SQLQueryDataStaging (with its {@code CacheKeyQuery}), of an SCPDataStaging, or Gantry's {@code
 * gx:CacheValidity} inside a standard DataStaging.
 */
final class CacheRules {
  private CacheRules() {}

  /**
   * The rule, or null (never cached) without validity and key query. An xsd:duration may count
   * months and years, so it is measured from now.
   */
  static CacheRule of(javax.xml.datatype.Duration validity, String keyQuery) {
    String query = keyQuery == null ? null : keyQuery.strip();
    if (validity == null && (query == null || query.isEmpty())) {
      return null;
    }
    return new CacheRule(
        validity == null
            ? null
            : java.time.Duration.ofMillis(
                validity.getTimeInMillis(
                    GregorianCalendar.from(ZonedDateTime.now(ZoneOffset.UTC)))),
        query);
  }
}
