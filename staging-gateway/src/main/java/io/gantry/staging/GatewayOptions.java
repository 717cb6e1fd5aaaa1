package io.gantry.staging;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Tuning and policy of a {@link StagingGateway}; {@link #defaults()} suits a server. Checked when
 * built, with messages naming the setting and its limits.
 *
 * @param stepThreads steps (statements, transfers) of one execution-order group run in parallel,
 *     per stage-in or stage-out: one job's wide group never holds more threads than this
 * @param compressionThreads threads deflating blocks of blocked-gzip outputs
 * @param blockSize uncompressed bytes per blocked-gzip block (BGZF allows at most 65280)
 * @param compressionLevel deflate level 1 (fast) .. 9 (small)
 * @param fetchSize rows per JDBC fetch when streaming query results
 * @param maxConnectionsPerDataSource bound of each data source's connection pool
 * @param connectTimeout how long one attempt to get a database or SSH connection may take
 * @param connectAttempts attempts before a connection failure is reported
 * @param retryBackoff wait before the second attempt; doubles with each further attempt
 * @param knownHostsFile OpenSSH known_hosts file that remote host keys are checked against
 * @param acceptUnknownHostKeys if true, unknown and changed host keys are accepted (explicit
 *     opt-out)
 * @param postgresCopy extract from PostgreSQL with {@code COPY ... TO STDOUT} when every column's
 *     text form is already the staged form (see {@code PostgresCopyExport}), and load into it with
 *     {@code COPY ... FROM STDIN} into a staging table where the statement and types allow (see
 *     {@code PostgresCopyLoad}); JDBC rows and batches otherwise
 * @param bindBatchRows input rows whose executions of a bound statement go to PostgreSQL in one
 *     round trip (1: one round trip per row)
 */
public record GatewayOptions(
    int stepThreads,
    int compressionThreads,
    int blockSize,
    int compressionLevel,
    int fetchSize,
    int maxConnectionsPerDataSource,
    Duration connectTimeout,
    int connectAttempts,
    Duration retryBackoff,
    Path knownHostsFile,
    boolean acceptUnknownHostKeys,
    boolean postgresCopy,
    int bindBatchRows) {

  public static final int MAX_BLOCK_SIZE = 65280;

  public GatewayOptions {
    check(stepThreads, 1, 256, "stepThreads");
    check(compressionThreads, 1, 256, "compressionThreads");
    check(blockSize, 1024, MAX_BLOCK_SIZE, "blockSize");
    check(compressionLevel, 1, 9, "compressionLevel");
    check(fetchSize, 1, 1_000_000, "fetchSize");
    check(maxConnectionsPerDataSource, 1, 1000, "maxConnectionsPerDataSource");
    check(connectAttempts, 1, 100, "connectAttempts");
    check(bindBatchRows, 1, 10_000, "bindBatchRows");
    if (connectTimeout == null || connectTimeout.toMillis() < 250) {
      throw new IllegalArgumentException("connectTimeout must be at least 250 ms");
    }
    if (retryBackoff == null || retryBackoff.isNegative()) {
      throw new IllegalArgumentException("retryBackoff must not be negative");
    }
    if (knownHostsFile == null && !acceptUnknownHostKeys) {
      knownHostsFile = Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
    }
  }

  private static void check(int value, int min, int max, String name) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", not " + value);
    }
  }

  public static GatewayOptions defaults() {
    return new GatewayOptions(
        4,
        Math.max(1, Runtime.getRuntime().availableProcessors()),
        16 * 1024,
        1,
        10_000,
        4,
        Duration.ofSeconds(10),
        3,
        Duration.ofSeconds(1),
        null,
        false,
        true,
        100);
  }

  public GatewayOptions withKnownHosts(Path file, boolean acceptUnknown) {
    return new GatewayOptions(
        stepThreads,
        compressionThreads,
        blockSize,
        compressionLevel,
        fetchSize,
        maxConnectionsPerDataSource,
        connectTimeout,
        connectAttempts,
        retryBackoff,
        file,
        acceptUnknown,
        postgresCopy,
        bindBatchRows);
  }

  public GatewayOptions withRetries(Duration timeout, int attempts, Duration backoff) {
    return new GatewayOptions(
        stepThreads,
        compressionThreads,
        blockSize,
        compressionLevel,
        fetchSize,
        maxConnectionsPerDataSource,
        timeout,
        attempts,
        backoff,
        knownHostsFile,
        acceptUnknownHostKeys,
        postgresCopy,
        bindBatchRows);
  }

  public GatewayOptions withBlockSize(int bytes) {
    return new GatewayOptions(
        stepThreads,
        compressionThreads,
        bytes,
        compressionLevel,
        fetchSize,
        maxConnectionsPerDataSource,
        connectTimeout,
        connectAttempts,
        retryBackoff,
        knownHostsFile,
        acceptUnknownHostKeys,
        postgresCopy,
        bindBatchRows);
  }

  public GatewayOptions withPostgresCopy(boolean enabled) {
    return new GatewayOptions(
        stepThreads,
        compressionThreads,
        blockSize,
        compressionLevel,
        fetchSize,
        maxConnectionsPerDataSource,
        connectTimeout,
        connectAttempts,
        retryBackoff,
        knownHostsFile,
        acceptUnknownHostKeys,
        enabled,
        bindBatchRows);
  }

  public GatewayOptions withThreads(int steps, int compression) {
    return new GatewayOptions(
        steps,
        compression,
        blockSize,
        compressionLevel,
        fetchSize,
        maxConnectionsPerDataSource,
        connectTimeout,
        connectAttempts,
        retryBackoff,
        knownHostsFile,
        acceptUnknownHostKeys,
        postgresCopy,
        bindBatchRows);
  }

  public GatewayOptions withCompressionLevel(int level) {
    return new GatewayOptions(
        stepThreads,
        compressionThreads,
        blockSize,
        level,
        fetchSize,
        maxConnectionsPerDataSource,
        connectTimeout,
        connectAttempts,
        retryBackoff,
        knownHostsFile,
        acceptUnknownHostKeys,
        postgresCopy,
        bindBatchRows);
  }

  public GatewayOptions withBindBatchRows(int rows) {
    return new GatewayOptions(
        stepThreads,
        compressionThreads,
        blockSize,
        compressionLevel,
        fetchSize,
        maxConnectionsPerDataSource,
        connectTimeout,
        connectAttempts,
        retryBackoff,
        knownHostsFile,
        acceptUnknownHostKeys,
        postgresCopy,
        rows);
  }
}
