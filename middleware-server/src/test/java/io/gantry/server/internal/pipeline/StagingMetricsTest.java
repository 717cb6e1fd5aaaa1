package io.gantry.server.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.gantry.staging.ManifestRecord;
import org.junit.jupiter.api.Test;

/** Staging metrics' labels: a data source's name, a host, a scheme; never a URL, user or path. */
class StagingMetricsTest {
  private static ManifestRecord record(String kind, String source) {
    return new ManifestRecord(kind, source, "SELECT secret FROM t", "f.csv", 1, 1, "", 0.1, false);
  }

  @Test
  void aConfiguredDataSourceIsLabelledByItsNameAndAJobsOwnUrlAsInline() {
    assertArrayEquals(
        new String[] {"risk", "sql"},
        StagingMetrics.labels(record("sql-extract", "'risk' (jdbc:h2:tcp://db/risk)")));
    assertArrayEquals(
        new String[] {"inline", "sql"},
        StagingMetrics.labels(record("sql-load", "'jdbc:postgresql://db:5432/risk'")));
  }

  @Test
  void aRemoteTransferIsLabelledByItsHostAndScheme() {
    assertArrayEquals(
        new String[] {"hpc-login.example", "scp"},
        StagingMetrics.labels(record("transmit", "scp://alice@HPC-login.example:22")));
    assertArrayEquals(
        new String[] {"files.example", "https"},
        StagingMetrics.labels(record("uri-in", "https://files.example:443/private/path.csv")));
    assertArrayEquals(
        new String[] {"local", "file"},
        StagingMetrics.labels(record("uri-in", "file:///srv/share/x.csv")));
  }
}
