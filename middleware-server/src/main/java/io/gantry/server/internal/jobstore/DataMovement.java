package io.gantry.server.internal.jobstore;

/**
 * One file a job's staging moved, as recorded in the job store.
 *
 * @param phase STAGE_IN or STAGE_OUT
 * @param kind e.g. "sql-extract", "sql-load", "scp", "sftp"
 * @param source the data source and statement, or remote host and path; never a secret
 * @param detail further detail (the statement, the remote path), or null
 * @param file the file in the job directory
 * @param rows rows moved (0 for a plain file transfer)
 * @param bytes bytes written or read
 * @param sha256 checksum of the file, hex, or null
 * @param seconds how long the step took
 * @param skipped true when the step had already been done (stage-out ledger) and did nothing
 */
public record DataMovement(
    String phase,
    String kind,
    String source,
    String detail,
    String file,
    long rows,
    long bytes,
    String sha256,
    double seconds,
    boolean skipped) {

  public static final String STAGE_IN = "STAGE_IN";
  public static final String STAGE_OUT = "STAGE_OUT";
}
