package io.gantry.server.internal.pipeline;

import io.gantry.server.internal.metrics.ServerMetrics;
import io.gantry.staging.ManifestRecord;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A staging phase's manifest as metrics (docs/operations.md): rows, bytes and seconds per data
 * source and scheme, and stage-in cache hits and misses. Labels stay few and free of secrets: a
 * configured data source's NAME ("inline" for a job's own JDBC URL), or the host of an scp, sftp or
 * URI transfer; never a user, a path, a URL or SQL text.
 */
final class StagingMetrics {
  private static final java.util.regex.Pattern NAMED_SOURCE =
      java.util.regex.Pattern.compile("'([A-Za-z0-9_.-]{1,64})' \\(.*\\)");

  private StagingMetrics() {}

  static void record(ServerMetrics metrics, String direction, List<ManifestRecord> records) {
    for (ManifestRecord r : records) {
      if (r.skipped()) {
        continue;
      }
      String[] labels = labels(r);
      metrics.staged(
          direction,
          labels[0],
          labels[1],
          Math.max(0, r.rows()),
          Math.max(0, r.bytes()),
          Duration.ofNanos((long) (Math.max(0, r.seconds()) * 1e9)));
      if (direction.equals("in")) {
        metrics.stageInCache(r.cacheHit());
      }
    }
  }

  /** {source, scheme} of one record. */
  static String[] labels(ManifestRecord r) {
    if (r.kind().startsWith("sql-")) {
      // the manifest shows a configured data source as 'NAME' (redacted URL), a job's own JDBC
      // URL as 'redacted URL' or the URL alone: only the name becomes a label
      java.util.regex.Matcher named = NAMED_SOURCE.matcher(r.source());
      return new String[] {named.matches() ? named.group(1) : "inline", "sql"};
    }
    try {
      URI uri = URI.create(r.source());
      String scheme =
          uri.getScheme() == null ? "unknown" : uri.getScheme().toLowerCase(Locale.ROOT);
      String host = uri.getHost();
      return new String[] {host == null ? "local" : host.toLowerCase(Locale.ROOT), scheme};
    } catch (IllegalArgumentException e) {
      return new String[] {"unknown", "unknown"};
    }
  }
}
