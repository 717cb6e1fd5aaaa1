package io.gantry.staging;

/**
 * What one staging step produced: enough for the server's audit trail and for a later check that a
 * staged file is the one that was written.
 *
 * @param kind {@code sql-extract}, {@code sql-extract-cached} (a stage-in cache hit: the file is
 *     the cached extract, linked or copied), {@code sql-load}, {@code transmit}, {@code
 *     transmit-cached}, {@code receive}, {@code uri-in}, {@code uri-in-cached}, {@code uri-out}
 * @param source the data source (described without secrets) or the remote host
 * @param detail the SQL statement or the remote path
 * @param file the job-relative file written (stage-in) or read (stage-out)
 * @param rows data rows (without the header); -1 for files copied as bytes
 * @param bytes size of {@code file} in bytes
 * @param sha256 SHA-256 of {@code file}'s bytes, lowercase hex
 * @param seconds wall time of the step
 * @param skipped true when stage-out found the step already committed (ledger) and did nothing
 */
public record ManifestRecord(
    String kind,
    String source,
    String detail,
    String file,
    long rows,
    long bytes,
    String sha256,
    double seconds,
    boolean skipped) {

  /** The kind of a record whose file came from the stage-in cache instead of the database. */
  public static final String SQL_EXTRACT_CACHED = "sql-extract-cached";

  /** A remote file ({@code SCPDataStaging} transmit) served from the stage-in cache. */
  public static final String TRANSMIT_CACHED = "transmit-cached";

  /** A standard {@code DataStaging} stage-in served from the stage-in cache. */
  public static final String URI_IN_CACHED = "uri-in-cached";

  /** True when the file came from the stage-in cache. */
  public boolean cacheHit() {
    return SQL_EXTRACT_CACHED.equals(kind)
        || TRANSMIT_CACHED.equals(kind)
        || URI_IN_CACHED.equals(kind);
  }
}
