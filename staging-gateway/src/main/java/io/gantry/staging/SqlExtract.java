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
 */
public record SqlExtract(
    DataSourceRef dataSource,
    int executionOrderGroup,
    String statement,
    String outputFileName,
    String inputFileName,
    CreationFlag creationFlag,
    boolean outputCompressed,
    CacheRule cache) {
  public SqlExtract {
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
        rule);
  }

  /** Short label for messages and the manifest. */
  public String label() {
    return "SQL extract to " + outputFileName + " (group " + executionOrderGroup + ")";
  }
}
