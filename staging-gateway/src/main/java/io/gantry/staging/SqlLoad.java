package io.gantry.staging;

import java.util.Objects;

/**
 * One stage-out SQL step: each row of a CSV file (plain or blocked gzip) binds the {@code ?}
 * parameters of an {@code INSERT}, {@code UPDATE} or {@code MERGE}, in column order. The whole step
 * is one transaction.
 *
 * @param dataSource target database
 * @param executionOrderGroup groups run in ascending order; steps of one group in parallel
 * @param statement the DML statement, with exactly as many {@code ?} as the CSV has columns
 * @param inputFileName CSV relative to the job directory (compression detected by magic bytes)
 * @param batchSize rows per JDBC batch
 * @param boundValues values bound to some markers for every row (a job template's parameters); the
 *     CSV's columns fill the other markers, in order
 */
public record SqlLoad(
    DataSourceRef dataSource,
    int executionOrderGroup,
    String statement,
    String inputFileName,
    int batchSize,
    BoundValues boundValues) {
  public static final int DEFAULT_BATCH_SIZE = 1000;

  /** A load without bound values. */
  public SqlLoad(
      DataSourceRef dataSource,
      int executionOrderGroup,
      String statement,
      String inputFileName,
      int batchSize) {
    this(dataSource, executionOrderGroup, statement, inputFileName, batchSize, BoundValues.NONE);
  }

  public SqlLoad {
    boundValues = boundValues == null ? BoundValues.NONE : boundValues;
    Objects.requireNonNull(dataSource, "dataSource");
    if (statement == null || statement.isBlank()) {
      throw new IllegalArgumentException("stage-out SQLStatement must not be empty");
    }
    if (inputFileName == null || inputFileName.isBlank()) {
      throw new IllegalArgumentException("stage-out input file name must not be empty");
    }
    if (batchSize < 1 || batchSize > 100_000) {
      throw new IllegalArgumentException(
          "batch size must be between 1 and 100000, not " + batchSize);
    }
  }

  public String label() {
    return "SQL load of " + inputFileName + " (group " + executionOrderGroup + ")";
  }
}
