package io.gantry.staging;

import java.util.Objects;

/**
 * One {@code SQLQueryDataStaging} element: run a query and write its rows as CSV into the job
 * directory.
 *
 * @param dataSource where to run it
 * @param executionOrderGroup statements of one group run in parallel; groups run in ascending order
 * @param statement the SQL query; {@code ?} parameters are bound from {@code inputFileName}
 * @param outputFileName CSV file relative to the job directory
 * @param inputFileName CSV file (relative) whose rows bind the parameters, each row one execution;
 *     or null
 * @param creationFlag what to do when the output exists
 * @param outputCompressed write blocked gzip ({@code SQLOutputFileCompression})
 * @param cache when the result may come from the stage-in cache; null: never cached
 * @param boundValues values bound to some of the statement's markers for every execution (a job
 *     template's parameters); the other markers take the input row's columns
 */
public record SqlExtract(
    DataSourceRef dataSource,
    int executionOrderGroup,
    String statement,
    String outputFileName,
    String inputFileName,
    CreationFlag creationFlag,
    boolean outputCompressed,
    CacheRule cache,
    BoundValues boundValues) {
  public SqlExtract {
    boundValues = boundValues == null ? BoundValues.NONE : boundValues;
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(creationFlag, "creationFlag");
    if (statement == null || statement.isBlank()) {
      throw new IllegalArgumentException("SQLStatement must not be empty");
    }
    if (outputFileName == null || outputFileName.isBlank()) {
      throw new IllegalArgumentException("SQLOutputFileName must not be empty");
    }
    if (inputFileName != null && inputFileName.isBlank()) {
      inputFileName = null;
    }
  }

  /** An extract without bound values. */
  public SqlExtract(
      DataSourceRef dataSource,
      int executionOrderGroup,
      String statement,
      String outputFileName,
      String inputFileName,
      CreationFlag creationFlag,
      boolean outputCompressed,
      CacheRule cache) {
    this(
        dataSource,
        executionOrderGroup,
        statement,
        outputFileName,
        inputFileName,
        creationFlag,
        outputCompressed,
        cache,
        BoundValues.NONE);
  }

  /** An extract that is never cached. */
  public SqlExtract(
      DataSourceRef dataSource,
      int executionOrderGroup,
      String statement,
      String outputFileName,
      String inputFileName,
      CreationFlag creationFlag,
      boolean outputCompressed) {
    this(
        dataSource,
        executionOrderGroup,
        statement,
        outputFileName,
        inputFileName,
        creationFlag,
        outputCompressed,
        null);
  }

  /** The same extract under another cache rule. */
  public SqlExtract withCache(CacheRule rule) {
    return new SqlExtract(
        dataSource,
        executionOrderGroup,
        statement,
        outputFileName,
        inputFileName,
        creationFlag,
        outputCompressed,
        rule,
        boundValues);
  }

  /** The same extract with values bound to some of its markers. */
  public SqlExtract withBoundValues(BoundValues values) {
    return new SqlExtract(
        dataSource,
        executionOrderGroup,
        statement,
        outputFileName,
        inputFileName,
        creationFlag,
        outputCompressed,
        cache,
        values);
  }

  /** Short label for messages and the manifest. */
  public String label() {
    return "SQL extract to " + outputFileName + " (group " + executionOrderGroup + ")";
  }
}
