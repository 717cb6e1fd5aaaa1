package io.gantry.staging;

/**
 * What one staging step produced: enough for the server's audit trail and for a later check
 * that a staged file is the one that was written.
 *
 * @param kind {@code sql-extract}, {@code sql-extract-cached} (a stage-in cache hit: the file is the
 *     cached extract, linked or copied), {@code sql-load}, {@code transmit}, {@code receive}
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
    String kind, String source, String detail, String file, long rows, long bytes, String sha256,
    double seconds, boolean skipped) {

  /** The kind of a record whose file came from the stage-in cache instead of the database. */
  public static final String SQL_EXTRACT_CACHED = "sql-extract-cached";

  /** True when the file came from the stage-in cache. */
  public boolean cacheHit() {
    return SQL_EXTRACT_CACHED.equals(kind);
  }

  /** One JSON object (no secrets in any field). */
  public String toJson() {
    return "{\"kind\":" + quote(kind) + ",\"source\":" + quote(source) + ",\"detail\":" + quote(detail)
        + ",\"file\":" + quote(file) + ",\"rows\":" + rows + ",\"bytes\":" + bytes
        + ",\"sha256\":" + quote(sha256) + ",\"seconds\":" + seconds + ",\"skipped\":" + skipped + "}";
  }

  private static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }
}
