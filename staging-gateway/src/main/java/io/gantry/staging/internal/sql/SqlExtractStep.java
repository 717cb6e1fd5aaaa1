package io.gantry.staging.internal.sql;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.DataSourceSpec;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.SqlExtract;
import io.gantry.staging.StagingException;
import io.gantry.staging.internal.bgzf.BlockGzipWriter;
import io.gantry.staging.internal.bgzf.CompressedFiles;
import io.gantry.staging.internal.cache.CacheStore;
import io.gantry.staging.internal.csv.CsvRowReader;
import io.gantry.staging.internal.csv.CsvRowWriter;
import io.gantry.staging.internal.csv.ParameterBinder;
import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.files.StagedFile;
import io.gantry.staging.internal.steps.AttemptFailure;
import io.gantry.staging.internal.steps.RetriedAttempts;
import io.gantry.staging.internal.steps.Step;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link SqlExtract}: the query's rows stream into a CSV file (blocked gzip if asked).
 *
 * <ol>
 *   <li>Names are resolved inside the job directory; {@code dontOverwrite} on an existing file
 *       fails before the query runs.
 *   <li>Rows stream: autocommit off and a fetch size, so PostgreSQL uses a cursor and never holds
 *       the whole result in memory.
 *   <li>With an input file, every input row binds the parameters and executes the statement once;
 *       all results go into one output under one header.
 *   <li>{@code append} keeps the existing rows (and drops the old EOF block of a compressed file)
 *       and checks that its header matches the query's columns.
 *   <li>The output is published by rename only when everything succeeded.
 * </ol>
 */
public final class SqlExtractStep implements Step {
  private static final Logger LOG = LoggerFactory.getLogger(SqlExtractStep.class);
  private final SqlExtract extract;
  private final SqlSteps env;

  public SqlExtractStep(SqlExtract extract, SqlSteps env) {
    this.extract = extract;
    this.env = env;
  }

  @Override
  public int group() {
    return extract.executionOrderGroup();
  }

  @Override
  public String label() {
    return extract.label();
  }

  @Override
  public ManifestRecord run(StepContext context) throws StagingException, InterruptedException {
    long start = System.nanoTime();
    DataSourceSpec spec =
        env.resolve(extract.dataSource(), CredentialResolver.Access.READ, label());
    if (env.jobDirectory().local() == null) {
      return RetriedAttempts.run(
          label(), env.options(), context, () -> remoteAttempt(spec, context, start));
    }
    try {
      JobDirectory dir = env.jobDirectory().local();
      Path output = dir.resolve(extract.outputFileName(), "SQLOutputFileName");
      Path input =
          extract.inputFileName() == null
              ? null
              : dir.resolve(extract.inputFileName(), "SQLInputFileName");
      if (input != null && !Files.isRegularFile(input)) {
        throw new StagingException(
            label(), "SQLInputFileName '" + extract.inputFileName() + "' does not exist");
      }
      if (extract.creationFlag() == CreationFlag.DONT_OVERWRITE && Files.exists(output)) {
        throw new StagingException(
            label(),
            "'"
                + extract.outputFileName()
                + "' exists and SQLOutputFileCreationFlag is dontOverwrite");
      }
      if (cacheable()) {
        return cached(spec, output, input, context, start);
      }
      return extractInto(spec, output, input, context, start);
    } catch (SQLException e) {
      throw new StagingException(label(), SqlSteps.failure(spec, extract.statement(), e), e);
    } catch (ParameterBinder.BindException e) {
      throw new StagingException(label(), e.getMessage(), e);
    } catch (IOException e) {
      throw new StagingException(label(), e.getMessage(), e);
    }
  }

  /** Runs the statement into {@code output}: the step without the cache. */
  private ManifestRecord extractInto(
      DataSourceSpec spec, Path output, Path input, StepContext context, long start)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    boolean appending =
        extract.creationFlag() == CreationFlag.APPEND
            && Files.exists(output)
            && Files.size(output) > 0;
    boolean compress = appending ? CompressedFiles.isGzip(output) : extract.outputCompressed();
    if (appending && compress != extract.outputCompressed()) {
      throw new StagingException(
          label(),
          "cannot append "
              + (extract.outputCompressed() ? "compressed" : "plain")
              + " rows to the existing "
              + (compress ? "compressed" : "plain")
              + " file '"
              + extract.outputFileName()
              + "'");
    }
    List<String> existingHeader = appending ? readHeader(output) : null;
    try (StagedFile file =
            appending
                ? StagedFile.appendingTo(
                    output,
                    compress ? CompressedFiles.lengthWithoutEofBlock(output) : Files.size(output))
                : StagedFile.create(output);
        Connection connection =
            env.pools().connect(spec, extract.dataSource().name() == null, label())) {
      if (appending && !compress && !endsWithLineBreak(output)) {
        file.stream()
            .write('\n'); // a hand-made file without a final line break: keep its last row whole
      }
      long rows =
          query(
              connection,
              file,
              compress,
              input == null ? null : () -> CompressedFiles.openDecompressed(input),
              existingHeader,
              context);
      String sha256 = file.commit(extract.creationFlag());
      return new ManifestRecord(
          "sql-extract",
          spec.describe(),
          extract.statement(),
          extract.outputFileName(),
          rows,
          file.bytes(),
          sha256,
          (System.nanoTime() - start) / 1e9,
          false);
    }
  }

  /**
   * One attempt into a job directory on the cluster: rows, CSV, blocked gzip and the SFTP write are
   * one pass, and nothing is written on this server. The output appears by rename when complete; a
   * broken link fails the attempt ({@link io.gantry.staging.internal.steps.BrokenStreamException})
   * and the whole statement runs again from the start. Appending is refused (it would need the old
   * bytes read back first), and the stage-in cache, which keeps files on this server, is not used.
   */
  private ManifestRecord remoteAttempt(DataSourceSpec spec, StepContext context, long start)
      throws AttemptFailure, IOException, InterruptedException {
    JobFiles dir = env.jobDirectory();
    try {
      if (extract.creationFlag() != CreationFlag.OVERWRITE
          && dir.exists(extract.outputFileName(), "SQLOutputFileName")) {
        throw new StagingAttemptFailure(
            "'"
                + extract.outputFileName()
                + (extract.creationFlag() == CreationFlag.APPEND
                    ? "' exists, and appending to a file of a job directory on the cluster is not"
                        + " supported"
                    : "' exists and SQLOutputFileCreationFlag is dontOverwrite"));
      }
      String inputName = extract.inputFileName();
      if (inputName != null && !dir.exists(inputName, "SQLInputFileName")) {
        throw new StagingAttemptFailure("SQLInputFileName '" + inputName + "' does not exist");
      }
      InputRows input =
          inputName == null
              ? null
              : () ->
                  CompressedFiles.decompressed(
                      java.nio.channels.Channels.newInputStream(
                          dir.openForReading(inputName, "SQLInputFileName")),
                      inputName);
      try (OutputFile file = dir.create(extract.outputFileName(), "SQLOutputFileName");
          Connection connection =
              env.pools().connect(spec, extract.dataSource().name() == null, label())) {
        long rows = query(connection, file, extract.outputCompressed(), input, null, context);
        CreationFlag flag =
            extract.creationFlag() == CreationFlag.APPEND
                ? CreationFlag.OVERWRITE
                : extract.creationFlag();
        String sha256 = file.commit(flag);
        return new ManifestRecord(
            "sql-extract",
            spec.describe(),
            extract.statement(),
            extract.outputFileName(),
            rows,
            file.bytes(),
            sha256,
            (System.nanoTime() - start) / 1e9,
            false);
      }
    } catch (SQLException e) {
      throw new StagingAttemptFailure(SqlSteps.failure(spec, extract.statement(), e), e);
    } catch (ParameterBinder.BindException | StagingException e) {
      throw new StagingAttemptFailure(e.getMessage(), e);
    }
  }

  /** A failure of a remote extract that running it again cannot heal. */
  private static final class StagingAttemptFailure extends AttemptFailure {
    private static final long serialVersionUID = 1L;

    StagingAttemptFailure(String message) {
      super(message, null, false);
    }

    StagingAttemptFailure(String message, Throwable cause) {
      super(message, cause, false);
    }
  }

  private boolean cacheable() {
    return env.cache() != null
        && extract.cache() != null
        && extract.cache().enabled()
        && extract.creationFlag() != CreationFlag.APPEND;
  }

  /**
   * The step through the stage-in cache. The data source is resolved first (the resolver refuses a
   * user not allowed on it) and a connection taken (for an inline source, this is the login with
   * the job's own password), so a cached extract only reaches a job that could have run the
   * statement itself. The key query, if any, runs on that connection; then, under the key's lock
   * (concurrent jobs with the same key extract once), a valid entry whose checksum still holds is
   * linked into the job directory, or the statement runs and its output becomes the entry.
   */
  private ManifestRecord cached(
      DataSourceSpec spec, Path output, Path input, StepContext context, long start)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    String keyResult;
    try (Connection connection =
        env.pools().connect(spec, extract.dataSource().name() == null, label())) {
      keyResult =
          extract.cache().keyQuery() == null
              ? ""
              : CacheKeys.keyQueryResult(connection, extract.cache().keyQuery(), context);
    }
    String key = CacheKeys.key(extract, spec, input, keyResult);
    try (CacheStore.Held held = env.cache().lock(key)) {
      Optional<CacheStore.Entry> hit =
          env.cache().usable(key, extract.cache().validity(), Instant.now());
      if (hit.isPresent()) {
        CacheStore.Entry e = hit.get();
        CacheStore.linkInto(e.data(), output, extract.creationFlag());
        return new ManifestRecord(
            ManifestRecord.SQL_EXTRACT_CACHED,
            spec.describe(),
            extract.statement(),
            extract.outputFileName(),
            e.rows(),
            e.bytes(),
            e.sha256(),
            (System.nanoTime() - start) / 1e9,
            false);
      }
      ManifestRecord extracted = extractInto(spec, output, input, context, start);
      try {
        env.cache()
            .publish(
                key,
                output,
                extracted.sha256(),
                extracted.bytes(),
                extracted.rows(),
                spec.describe(),
                extract.statement(),
                Instant.now());
      } catch (IOException e) {
        // the job has its file; only later jobs lose the shortcut
        LOG.warn("{}: could not add the extract to the stage-in cache: {}", label(), e.toString());
      }
      return extracted;
    }
  }

  private long query(
      Connection connection,
      OutputFile file,
      boolean compress,
      InputRows input,
      List<String> existingHeader,
      StepContext context)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    readOnlyTransaction(connection);
    OutputStream sink =
        compress
            ? new BlockGzipWriter(
                file.stream(),
                env.compressionPool(),
                env.options().compressionThreads(),
                env.options().blockSize(),
                env.options().compressionLevel())
            : file.stream();
    CsvRowWriter csv = new CsvRowWriter(sink);
    try (ResultExport export =
        new ResultExport(csv, existingHeader, file, context, label(), extract.outputFileName())) {
      if (input == null
          && extract.boundValues().isEmpty() // COPY takes no parameters
          && env.options().postgresCopy()
          && PostgresCopyExport.isPostgres(connection)) {
        long copied = copyFromPostgres(connection, sink, csv, compress, export, context);
        if (copied >= 0) {
          return copied;
        }
      }
      try (PreparedStatement ps =
          connection.prepareStatement(
              extract.statement(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
        ps.setFetchSize(env.options().fetchSize());
        AutoCloseable cancel = ps::cancel;
        context.onCancel(cancel);
        try {
          if (input == null) {
            bindValuesOnly(ps);
            try (ResultSet rs = ps.executeQuery()) {
              export.rows(rs);
            }
          } else if (PostgresCopyExport.isPostgres(connection)
              && env.options().bindBatchRows() > 1
              && extract.boundValues().isEmpty()) {
            new BatchedBinding(connection, ps, extract, env.options().bindBatchRows(), label())
                .run(input, export, context);
          } else {
            executePerInputRow(ps, input, export, context);
          }
          if (!export.headerDone()) {
            export.header(ps.getMetaData()); // no input rows: the header still tells the columns
          }
        } finally {
          context.clearOnCancel(cancel);
        }
      }
      export.finish(); // the writing thread's last rows
      csv.close(); // ends the last compressed block and writes the EOF block
      connection.commit();
      export.reportRest();
      return export.rowCount();
    }
  }

  /**
   * Stage-in only reads, and says so to the database, so that a write the SQL checks missed still
   * fails: pgjdbc begins the transaction READ ONLY, and SET TRANSACTION makes sure even if a driver
   * setting told it to ignore the hint. H2 treats setReadOnly as a hint only; there the SQL checks
   * and a read-only database account are the defence (docs/security.md). The pool resets the flag
   * when the connection goes back.
   */
  private static void readOnlyTransaction(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    connection.setReadOnly(true);
    if (PostgresCopyExport.isPostgres(connection)) {
      try (java.sql.Statement s = connection.createStatement()) {
        s.execute("SET TRANSACTION READ ONLY");
      }
    }
  }

  /** The COPY fast path; returns the row count, or -1 if a column type needs the JDBC path. */
  private long copyFromPostgres(
      Connection connection,
      OutputStream sink,
      CsvRowWriter csv,
      boolean compress,
      ResultExport export,
      StepContext context)
      throws SQLException, IOException, InterruptedException, StagingException {
    List<String> columns = new java.util.ArrayList<>();
    List<Integer> timestamps = new java.util.ArrayList<>();
    String copy =
        PostgresCopyExport.copyStatement(connection, extract.statement(), columns, timestamps);
    if (copy == null) {
      return -1;
    }
    export.header(columns);
    csv.flush(); // the header goes before the server's rows
    // the server sends one message per row: buffer before a plain file, the block writer buffers
    // itself
    OutputStream out = compress ? sink : new java.io.BufferedOutputStream(sink, 1 << 16);
    long count =
        PostgresCopyExport.copyOut(connection, copy, timestamps, out, context, export::addRows);
    out.flush();
    csv.close(); // ends the last compressed block and writes the EOF block
    connection.commit();
    export.reportRest();
    return count;
  }

  /** A statement without input rows: its markers are all bound values, or there are none. */
  private void bindValuesOnly(PreparedStatement ps)
      throws SQLException, ParameterBinder.BindException {
    if (extract.boundValues().isEmpty()) {
      return;
    }
    ParameterBinder binder = ParameterBinder.forStatement(ps, "the job's parameters");
    binder.bind(ps, extract.boundValues().merge(new String[0], binder.parameterCount()), 0);
  }

  private void executePerInputRow(
      PreparedStatement ps, InputRows input, ResultExport export, StepContext context)
      throws SQLException,
          IOException,
          InterruptedException,
          ParameterBinder.BindException,
          StagingException {
    String inputName = extract.inputFileName();
    ParameterBinder binder = ParameterBinder.forStatement(ps, inputName);
    try (CsvRowReader reader = new CsvRowReader(input.open(), inputName)) {
      String[] fields;
      while ((fields = reader.next()) != null) {
        context.checkCancelled();
        int fromRow = binder.parameterCount() - extract.boundValues().count();
        if (fields.length < fromRow) {
          throw new StagingException(
              label(),
              inputName
                  + " line "
                  + reader.line()
                  + " has "
                  + fields.length
                  + " fields but the statement has "
                  + fromRow
                  + " parameters to bind from it");
        }
        binder.bind(
            ps,
            extract
                .boundValues()
                .merge(java.util.Arrays.copyOf(fields, fromRow), binder.parameterCount()),
            reader.line());
        try (ResultSet rs = ps.executeQuery()) {
          export.rows(rs);
        } catch (SQLException e) {
          throw new SQLException(
              "with the parameters of "
                  + inputName
                  + " line "
                  + reader.line()
                  + ": "
                  + e.getMessage(),
              e.getSQLState(),
              e);
        }
      }
    }
  }

  private static boolean endsWithLineBreak(Path file) throws IOException {
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
      java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
      return ch.size() == 0 || (ch.read(last, ch.size() - 1) == 1 && last.get(0) == '\n');
    }
  }

  private List<String> readHeader(Path output) throws IOException {
    try (CsvRowReader reader =
        new CsvRowReader(CompressedFiles.openDecompressed(output), extract.outputFileName())) {
      return reader.header();
    }
  }
}
