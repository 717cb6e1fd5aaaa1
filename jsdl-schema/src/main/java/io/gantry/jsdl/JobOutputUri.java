package io.gantry.jsdl;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A DataStaging {@code Source} that names a file of an earlier job: {@code gantry-job:JOB/FILE},
 * where JOB is the producing job's id and FILE a path relative to its job directory, e.g. {@code
 * gantry-job:7q3k.../results/var_summary.csv.gz}. Only the form is checked here; whether the job
 * exists, belongs to the same user and produces that file is the server's to say
 * (docs/workflows.md).
 *
 * @param job the producing job's reference as written (its id)
 * @param file the file, relative to the producer's job directory
 */
public record JobOutputUri(String job, String file) {
  /** The URI scheme. */
  public static final String SCHEME = "gantry-job";

  private static final Pattern JOB = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  /** Whether {@code uri} is written with this scheme (whatever its case). */
  public static boolean is(String uri) {
    return uri != null && uri.toLowerCase(Locale.ROOT).startsWith(SCHEME + ":");
  }

  /**
   * Reads {@code gantry-job:JOB/FILE}.
   *
   * @throws IllegalArgumentException saying what is wrong with the form
   */
  public static JobOutputUri parse(String uri) {
    if (!is(uri)) {
      throw new IllegalArgumentException("'" + uri + "' is not a " + SCHEME + ": URI");
    }
    String rest = uri.substring(SCHEME.length() + 1);
    if (rest.startsWith("/")) {
      throw new IllegalArgumentException(
          "write " + SCHEME + ":JOB/FILE (the job's id, then its file), without '//'");
    }
    int slash = rest.indexOf('/');
    if (slash < 1 || slash == rest.length() - 1) {
      throw new IllegalArgumentException(
          SCHEME + ": URIs name a job and one of its files, as " + SCHEME + ":JOB/FILE");
    }
    String job = rest.substring(0, slash);
    String file = rest.substring(slash + 1);
    if (!JOB.matcher(job).matches()) {
      throw new IllegalArgumentException("'" + job + "' is not a job id");
    }
    for (String part : file.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new IllegalArgumentException(
            "the file '"
                + file
                + "' must be a plain path inside the job's directory (no empty parts, '.' or"
                + " '..')");
      }
    }
    if (file.contains("?") || file.contains("#") || file.contains("%")) {
      throw new IllegalArgumentException(
          "the file '" + file + "' must be written as it is named, without '?', '#' or '%'");
    }
    return new JobOutputUri(job, file);
  }

  @Override
  public String toString() {
    return SCHEME + ":" + job + "/" + file;
  }
}
