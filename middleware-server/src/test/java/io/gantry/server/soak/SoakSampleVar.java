package io.gantry.server.soak;

import io.gantry.server.api.JobStatusInfo;
import io.gantry.server.internal.demo.DemoMarket;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl, docs/sample-var-job.md) as the soak's
 * users submit it: the file as shipped, pointed only at this server's demo SSH port and the built
 * mcvar (as SampleVarJobTest does): SQL stage-in from the demo market in two groups, scp of the
 * host file, mcvar on 2 ranks through mpirun, eight stage-out steps into the demo database, whose
 * rows carry the job's id as {@code run_id}. Its stage-out is checked exactly: each result table
 * holds, for a job that SUCCEEDED, as many rows of its run as the job's result file has records.
 */
final class SoakSampleVar {
  /** The demo bank's book size on a business date: small, the soak is about faults. */
  static final int DEMO_POSITIONS = 60;

  private static final Pattern STAGE_OUT =
      Pattern.compile(
          "<gx:SQLUpdateDataStaging>.*?INSERT INTO (\\w+).*?<gx:SQLInputFileName>([^<]+)<",
          Pattern.DOTALL);

  private final String example;
  private final Path mcvar;

  /** Each stage-out step of the example: its table, and the result file it inserts. */
  private final Map<String, String> fileOfTable = new LinkedHashMap<>();

  SoakSampleVar(Path repository) throws IOException {
    this.example = Files.readString(repository.resolve("jsdl-schema/examples/var-job.jsdl"));
    this.mcvar = repository.resolve("node-programs/build/mcvar");
    Matcher m = STAGE_OUT.matcher(example);
    while (m.find()) {
      fileOfTable.put(m.group(1), m.group(2));
    }
    if (fileOfTable.size() < 2) {
      throw new IllegalStateException("no stage-out steps found in var-job.jsdl");
    }
  }

  /** The example for a server whose demo SSH host listens on {@code demoSshPort}. */
  String job(int demoSshPort) {
    return example
        .replace(
            "<gx:RemotePort>2222</gx:RemotePort>",
            "<gx:RemotePort>" + demoSshPort + "</gx:RemotePort>")
        .replace(
            "<gx:Executable>mcvar</gx:Executable>", "<gx:Executable>" + mcvar + "</gx:Executable>");
  }

  /** What the stage-out check found; {@code unchecked}: succeeded jobs whose files were gone. */
  record Rows(
      long duplicated,
      long missing,
      long ofJobsNotSucceeded,
      List<String> jobsNotSucceededWithRows,
      long checked,
      long unchecked,
      List<String> violations) {}

  /**
   * Each stage-out step's result file and its records, read from a finished job's directory: taken
   * when the soak sees the job SUCCEEDED, before the server's {@code jobs.retention} removes the
   * directory.
   */
  Map<String, Long> resultRecords(Path jobDirectory) throws IOException {
    Map<String, Long> records = new LinkedHashMap<>();
    for (String file : fileOfTable.values()) {
      records.put(file, records(jobDirectory.resolve(file)));
    }
    return records;
  }

  /**
   * Compares the demo database's rows of each job with its result files' records ({@code
   * recordsOf}: empty where the soak never read them and the directory is gone). The database is a
   * file of the server's that H2 opens in one process only: call this once the last server has
   * stopped.
   */
  Rows check(
      Path dataDir,
      Map<String, JobStatusInfo> finals,
      java.util.function.Function<String, java.util.Optional<Map<String, Long>>> recordsOf)
      throws SQLException {
    long duplicated = 0;
    long missing = 0;
    long ofUnsucceeded = 0;
    List<String> unsucceededWithRows = new ArrayList<>();
    long checked = 0;
    long unchecked = 0;
    List<String> violations = new ArrayList<>();
    String url = new DemoMarket(dataDir.resolve("demo"), DEMO_POSITIONS).jdbcUrl();
    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
      for (JobStatusInfo s : finals.values()) {
        boolean succeeded = s.state.name().equals("SUCCEEDED");
        java.util.Optional<Map<String, Long>> known =
            succeeded ? recordsOf.apply(s.jobId) : java.util.Optional.empty();
        if (succeeded && known.isEmpty()) {
          unchecked++;
          continue;
        }
        if (succeeded) {
          checked++;
        }
        for (Map.Entry<String, String> step : fileOfTable.entrySet()) {
          long rows = rowsOf(c, step.getKey(), s.jobId);
          if (!succeeded) {
            ofUnsucceeded += rows;
            if (rows > 0 && !unsucceededWithRows.contains(s.jobId)) {
              unsucceededWithRows.add(s.jobId);
            }
            continue;
          }
          long records = known.get().get(step.getValue());
          if (rows > records) {
            duplicated++;
            violations.add(
                "sample job "
                    + s.jobId
                    + ": "
                    + rows
                    + " rows in "
                    + step.getKey()
                    + " for "
                    + records
                    + " records of "
                    + step.getValue());
          } else if (rows < records) {
            missing++;
            violations.add(
                "sample job "
                    + s.jobId
                    + " SUCCEEDED with "
                    + rows
                    + " rows in "
                    + step.getKey()
                    + " for "
                    + records
                    + " records of "
                    + step.getValue());
          }
        }
      }
    }
    return new Rows(
        duplicated, missing, ofUnsucceeded, unsucceededWithRows, checked, unchecked, violations);
  }

  private static long rowsOf(Connection c, String table, String jobId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE run_id = ?")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * The records of a result file: its lines but the header (blocked gzip is a series of gzip
   * members, which GZIPInputStream reads as one stream; mcvar's records hold no line breaks).
   */
  private static long records(Path file) throws IOException {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
      return Math.max(0, r.lines().count() - 1);
    }
  }
}
