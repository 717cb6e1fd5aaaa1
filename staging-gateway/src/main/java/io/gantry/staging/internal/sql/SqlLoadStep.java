package io.gantry.staging.internal.sql;

import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.SqlLoad;
import io.gantry.staging.StagingException;
import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.staging.internal.csv.CsvRowReader;
import io.gantry.staging.internal.csv.ParameterBinder;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.staging.internal.steps.Step;
import io.gantry.staging.internal.steps.StepContext;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link SqlLoad}: every row of a CSV file binds the statement, in JDBC batches, all in
 * one transaction together with the step's ledger row ({@link StageOutLedger}). On PostgreSQL a
 * one-row {@code INSERT ... VALUES} takes the COPY path instead ({@link PostgresCopyLoad}), in the
 * same transaction before the same ledger row.
 *
 * <ol>
 *   <li>The file's SHA-256 is computed; if the ledger says this job's step is committed with the
 *       same file, the step is skipped (a different file is an error: results changed).
 *   <li>Rows are bound (one parameter per column, in order) and batched; a failing row or batch
 *       rolls back everything this step wrote.
 *   <li>The ledger row is inserted, then the transaction commits.
 *   <li>The commit is made durable where the database's own commit does not ({@link
 *       io.gantry.staging.DurableCommit}: an H2 file in the server's JVM); only then is the step
 *       done.
 * </ol>
 */
public final class SqlLoadStep implements Step {
  private static final Logger LOG = LoggerFactory.getLogger(SqlLoadStep.class);
  private final SqlLoad load;
  private final SqlSteps env;
  private final String jobId;

  public SqlLoadStep(SqlLoad load, SqlSteps env, String jobId) {
    this.load = load;
    this.env = env;
    this.jobId = jobId;
  }

  @Override
  public int group() {
    return load.executionOrderGroup();
  }

  @Override
  public String label() {
    return load.label();
  }

  @Override
  public ManifestRecord run(StepContext context) throws StagingException, InterruptedException {
    long start = System.nanoTime();
    DataSourceSpec spec = env.resolve(load.dataSource(), CredentialResolver.Access.WRITE, label());
    try {
      SeekableByteChannel input;
      try {
        input = env.jobDirectory().openForReading(load.inputFileName(), "input file");
      } catch (NoSuchFileException e) {
        throw new StagingException(label(), e.getFile());
      }
      try (input) {
        return load(spec, input, context, start);
      }
    } catch (SQLException e) {
      throw new StagingException(
          label(), SqlSteps.failure(spec, load.statement(), e) + "; nothing was written", e);
    } catch (ParameterBinder.BindException | IOException e) {
      throw new StagingException(label(), e.getMessage() + "; nothing was written", e);
    }
  }

  /**
   * One read of the opened file for its checksum, a second for its rows: the same bytes both times.
   */
  private ManifestRecord load(
      DataSourceSpec spec, SeekableByteChannel input, StepContext context, long start)
      throws SQLException,
          IOException,
          ParameterBinder.BindException,
          StagingException,
          InterruptedException {
    long size = input.size(); // the CSV reader closes the channel when done
    String checksum = Checksums.sha256(input);
    String stepKey = stepKey();
    try (Connection c = env.pools().connect(spec, load.dataSource().name() == null, label())) {
      StageOutLedger.ensureTable(c);
      c.setAutoCommit(false);
      try {
        StageOutLedger.Entry done = StageOutLedger.find(c, jobId, stepKey);
        if (done != null) {
          c.rollback();
          // the run that committed it may have ended before its commit was made durable
          makeDurable(c, spec);
          return alreadyCommitted(done, checksum, spec, input, start);
        }
        long rows = copyRows(c, input, context);
        if (rows < 0) {
          rows = insertRows(c, input, context);
        }
        StageOutLedger.record(c, jobId, stepKey, checksum, rows);
        context.progress().listener().committing(label());
        c.commit();
        makeDurable(c, spec);
        return new ManifestRecord(
            "sql-load",
            spec.describe(),
            load.statement(),
            load.inputFileName(),
            rows,
            size,
            checksum,
            seconds(start),
            false);
      } catch (SQLException
          | IOException
          | ParameterBinder.BindException
          | StagingException
          | InterruptedException
          | RuntimeException e) {
        rollbackQuietly(c);
        throw e;
      }
    }
  }

  /**
   * The durable point of the step: after it the step may be reported done, and the server record
   * the job's results as staged out ({@link io.gantry.staging.DurableCommit}).
   */
  private void makeDurable(Connection c, DataSourceSpec spec) throws StagingException {
    try {
      env.durableCommit().afterCommit(c);
    } catch (SQLException e) {
      throw new StagingException(
          label(),
          "committed on data source "
              + spec.describe()
              + " but could not make it durable (a crash now could lose it): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * The PostgreSQL COPY path ({@link PostgresCopyLoad}) where the options allow it and the
   * statement and types fit; -1 where the JDBC path is to run instead: not taken, or rows the
   * database rejected (rolled back here, so the JDBC path starts a clean transaction and names the
   * rejected line).
   */
  private long copyRows(Connection c, SeekableByteChannel input, StepContext context)
      throws SQLException, IOException, StagingException, InterruptedException {
    if (!env.options().postgresCopy() || !PostgresCopyLoad.isPostgres(c)) {
      return -1;
    }
    String name = load.inputFileName();
    int columns;
    try (CsvRowReader header = new CsvRowReader(decompressed(input), name)) {
      columns = header.header().size();
    }
    PostgresCopyLoad.Plan plan =
        PostgresCopyLoad.plan(c, load.statement(), load.boundValues(), columns);
    if (plan == null) {
      input.position(0);
      return -1;
    }
    long rows;
    try (InputStream csv = decompressed(input)) {
      rows = PostgresCopyLoad.load(c, plan, csv, name, context);
    } catch (PostgresCopyLoad.RowsRejected e) {
      LOG.info(
          "{}: rows rejected on the COPY path, loading by JDBC to name them: {}",
          label(),
          e.getMessage());
      rows = -1;
    }
    if (rows < 0) {
      c.rollback();
      input.position(0);
      if (StageOutLedger.find(c, jobId, stepKey()) != null) {
        throw new StagingException(
            label(), "job " + jobId + " committed this step meanwhile, in another run");
      }
    }
    return rows;
  }

  /** The file's rows from its start, decompressed; closing the stream leaves the channel open. */
  private InputStream decompressed(SeekableByteChannel input) throws IOException {
    input.position(0);
    InputStream raw =
        new FilterInputStream(Channels.newInputStream(input)) {
          @Override
          public void close() {
            // the step closes the channel
          }
        };
    return CompressedFiles.decompressed(raw, load.inputFileName());
  }

  private long insertRows(Connection c, SeekableByteChannel input, StepContext context)
      throws SQLException,
          IOException,
          ParameterBinder.BindException,
          StagingException,
          InterruptedException {
    String name = load.inputFileName();
    try (PreparedStatement ps = c.prepareStatement(load.statement());
        CsvRowReader reader =
            new CsvRowReader(
                CompressedFiles.decompressed(Channels.newInputStream(input), name), name)) {
      AutoCloseable cancel = ps::cancel;
      context.onCancel(cancel);
      ParameterBinder binder = ParameterBinder.forStatement(ps, name);
      // a job template's parameters fill some markers; the file's columns fill the rest
      int fromRow = binder.parameterCount() - load.boundValues().count();
      if (reader.header().size() != fromRow) {
        throw new StagingException(
            label(),
            name
                + " has "
                + reader.header().size()
                + " columns "
                + reader.header()
                + " but the statement has "
                + fromRow
                + " parameters to bind from it");
      }
      long rows = 0;
      long batchStartLine = 2;
      int inBatch = 0;
      String[] fields;
      while ((fields = reader.next()) != null) {
        if (fields.length != fromRow) {
          throw new StagingException(
              label(),
              name
                  + " line "
                  + reader.line()
                  + " has "
                  + fields.length
                  + " fields, the header has "
                  + fromRow);
        }
        binder.bind(ps, load.boundValues().merge(fields, binder.parameterCount()), reader.line());
        ps.addBatch();
        rows++;
        if (++inBatch == load.batchSize()) {
          executeBatch(ps, batchStartLine, reader.line());
          context.checkCancelled();
          context.progress().add(inBatch, 0);
          inBatch = 0;
          batchStartLine = reader.line() + 1;
        }
      }
      if (inBatch > 0) {
        executeBatch(ps, batchStartLine, reader.line());
        context.progress().add(inBatch, 0);
      }
      context.clearOnCancel(cancel);
      return rows;
    }
  }

  private void executeBatch(PreparedStatement ps, long firstLine, long lastLine)
      throws SQLException {
    try {
      ps.executeBatch();
    } catch (BatchUpdateException e) {
      SQLException detail = e.getNextException() != null ? e.getNextException() : e;
      SQLException located =
          new SQLException(
              "in the batch of "
                  + load.inputFileName()
                  + " lines "
                  + firstLine
                  + "-"
                  + lastLine
                  + ": "
                  + detail.getMessage(),
              detail.getSQLState(),
              e);
      throw located;
    }
  }

  private ManifestRecord alreadyCommitted(
      StageOutLedger.Entry done,
      String checksum,
      DataSourceSpec spec,
      SeekableByteChannel input,
      long start)
      throws StagingException, IOException {
    if (!done.checksum().equals(checksum)) {
      throw new StagingException(
          label(),
          "job "
              + jobId
              + " already committed this step with a different file"
              + " (SHA-256 "
              + done.checksum()
              + ", now "
              + checksum
              + "); refusing to load it twice");
    }
    return new ManifestRecord(
        "sql-load",
        spec.describe(),
        load.statement(),
        load.inputFileName(),
        done.rows(),
        input.size(),
        checksum,
        seconds(start),
        true);
  }

  /**
   * Identifies the step within the job: data source, statement and file, hashed to a fixed width.
   */
  private String stepKey() {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      String identity =
          load.dataSource().describe()
              + "\u0000"
              + load.statement()
              + "\u0000"
              + load.inputFileName();
      return HexFormat.of().formatHex(d.digest(identity.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      // the connection is likely gone; the database discards the open transaction itself
    }
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }
}
