package io.gantry.server.bench;

import java.util.Arrays;

/** Percentiles of a set of latencies, by the nearest-rank method. */
record LatencySummary(int count, double p50Millis, double p99Millis) {

  static LatencySummary of(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return new LatencySummary(sorted.length, rank(sorted, 0.50), rank(sorted, 0.99));
  }

  static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return rank(sorted, 0.50);
  }

  private static double rank(long[] sorted, double quantile) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return sorted[Math.max(0, index)] / 1e6;
  }
}
