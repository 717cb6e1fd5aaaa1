package io.gantry.server.internal.compute;

import io.gantry.server.api.JobDocument;
import io.gantry.server.api.JobManagement;
import io.gantry.server.internal.demo.DemoMarket;
import io.gantry.testing.server.GantryTestServer;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.xml.parsers.DocumentBuilderFactory;
import org.xml.sax.InputSource;

/**
 * The sample VaR job (jsdl-schema/examples/var-job.jsdl, demo on, 300 positions) as the backend
 * tests run it on a fresh server: its settings, its submission, and its results read back from the
 * demo database, run id left out, so that two backends' runs compare equal.
 */
final class SampleVarRun {
  static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  static final Path MCVAR = REPOSITORY.resolve("node-programs/build/mcvar");

  private SampleVarRun() {}

  /** The demo on, with its SSH host on any port, and mcvar's directory allowed. */
  static Map<String, String> settings() {
    return Map.of(
        "demo.enabled",
        "true",
        "demo.positions",
        "300",
        "demo.ssh-port",
        "0",
        "jobs.allowed-executable-roots",
        MCVAR.getParent().toString());
  }

  /**
   * Runs each of {@code runs} (one sample on its own server, see the tests' {@code run}) in a
   * thread of its own, side by side: each mostly waits (for its server, staging, Slurm's polls), so
   * the runs overlap their waits. Returns their results in order; the first run that failed fails
   * the test with its own error, the other runs' errors attached.
   */
  static List<List<String>> sideBySide(List<Callable<List<String>>> runs) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(runs.size());
    try {
      List<Future<List<String>>> futures = new ArrayList<>();
      for (Callable<List<String>> run : runs) {
        futures.add(threads.submit(run));
      }
      List<List<String>> results = new ArrayList<>();
      Throwable first = null;
      for (Future<List<String>> future : futures) {
        try {
          results.add(future.get());
        } catch (ExecutionException e) {
          if (first == null) {
            first = e.getCause();
          } else {
            first.addSuppressed(e.getCause());
          }
        }
      }
      if (first instanceof Error error) {
        throw error; // an assertion's failure, as the run threw it
      }
      if (first != null) {
        throw (Exception) first;
      }
      return results;
    } finally {
      threads.shutdownNow();
    }
  }

  /** Submits the sample to {@code server}, its demo SSH port and this build's mcvar filled in. */
  static String submit(GantryTestServer server, JobManagement client) throws Exception {
    String xml =
        Files.readString(REPOSITORY.resolve("jsdl-schema/examples/var-job.jsdl"))
            .replace(
                "<gx:RemotePort>2222</gx:RemotePort>",
                "<gx:RemotePort>" + server.demoSshPort().orElseThrow() + "</gx:RemotePort>")
            .replace(
                "<gx:Executable>mcvar</gx:Executable>",
                "<gx:Executable>" + MCVAR + "</gx:Executable>");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return client.submitJob(
        new JobDocument(
            f.newDocumentBuilder()
                .parse(new InputSource(new StringReader(xml)))
                .getDocumentElement()));
  }

  /**
   * The run's rows in the demo database of the server with {@code dataDir}, once that server is
   * closed (H2 opens the file in one process at a time).
   */
  static List<String> results(Path dataDir, String runId) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c =
        DriverManager.getConnection(
            new DemoMarket(dataDir.resolve("demo"), 300).jdbcUrl(), "sa", "")) {
      rows.addAll(
          query(
              c,
              "SELECT node, confidence, var, expected_shortfall, var_stderr, es_stderr,"
                  + " pnl_mean, pnl_stddev, scenarios, diversification_var, diversification_es"
                  + " FROM var_node_summary WHERE run_id = ? ORDER BY node, confidence",
              runId));
      rows.addAll(
          query(
              c,
              "SELECT node, bin, lower, upper, count FROM var_node_pnl_distribution"
                  + " WHERE run_id = ? ORDER BY node, bin",
              runId));
      rows.addAll(
          query(
              c,
              "SELECT node, position_id, confidence, var_contribution, es_contribution,"
                  + " marginal_var FROM var_position_contribution"
                  + " WHERE run_id = ? ORDER BY node, position_id, confidence",
              runId));
    }
    return rows;
  }

  private static List<String> query(Connection c, String sql, String runId) throws Exception {
    List<String> rows = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= columns; i++) {
            row.append(rs.getString(i)).append('|');
          }
          rows.add(row.toString());
        }
      }
    }
    return rows;
  }
}
