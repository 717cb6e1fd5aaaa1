package io.gantry.staging.internal.sql;

import io.gantry.staging.ConnectionPolicy;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceRef;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.DurableCommit;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.StagingException;
import io.gantry.staging.internal.cache.CacheStore;
import io.gantry.staging.internal.files.JobFiles;
import java.util.concurrent.ExecutorService;

/**
 * What SQL steps share: the job directory, credentials, pools, compression threads, options, the
 * stage-in cache (null: none) and what makes a stage-out commit durable (stage-in writes nothing to
 * keep: {@link DurableCommit#NONE}).
 */
public record SqlSteps(
    JobFiles jobDirectory,
    CredentialResolver credentials,
    DataSourcePools pools,
    ExecutorService compressionPool,
    GatewayOptions options,
    ConnectionPolicy policy,
    CacheStore cache,
    DurableCommit durableCommit) {

  /**
   * Resolves a plan's data source for reading or writing, turning the resolver's refusal into a
   * step failure. An inline URL is checked against the policy again here, at the moment of use,
   * before any password is decrypted.
   */
  DataSourceSpec resolve(DataSourceRef ref, CredentialResolver.Access access, String step)
      throws StagingException {
    if (ref.name() == null) {
      var problem = policy.inlineDataSourceProblem(ref.jdbcUrl());
      if (problem.isPresent()) {
        throw new StagingException(step, "data source " + ref.describe() + ": " + problem.get());
      }
    }
    try {
      DataSourceSpec spec = credentials.dataSource(ref, access);
      if (spec == null) {
        throw new StagingException(step, "unknown data source " + ref.describe());
      }
      return spec;
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new StagingException(step, "data source " + ref.describe() + ": " + e.getMessage(), e);
    }
  }

  /** "statement [SELECT ...] failed on data source 'x' (url): database message [SQLSTATE]". */
  static String failure(DataSourceSpec spec, String statement, java.sql.SQLException e) {
    StringBuilder b =
        new StringBuilder("statement [")
            .append(abbreviate(statement))
            .append("] failed on data source ")
            .append(spec.describe())
            .append(": ")
            .append(e.getMessage());
    if (e.getSQLState() != null) {
      b.append(" [SQLSTATE ").append(e.getSQLState()).append(']');
    }
    java.sql.SQLException next = e.getNextException();
    if (next != null
        && next != e
        && next.getMessage() != null
        && !next.getMessage().equals(e.getMessage())) {
      b.append("; ").append(next.getMessage());
    }
    return b.toString();
  }

  /** The statement on one line, cut at 200 characters: enough to recognise it in a message. */
  static String abbreviate(String statement) {
    String one = statement.strip().replaceAll("\\s+", " ");
    return one.length() <= 200 ? one : one.substring(0, 200) + "...";
  }
}
