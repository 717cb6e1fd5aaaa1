package io.gantry.cli;

import io.gantry.cli.soap.VarFigureInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How {@code gantry var} prints figures: a table by default, {@code --json} (the global option) or
 * {@code --csv} (RFC 4180, one header row) for programs. The three carry the same columns.
 */
final class VarFigures {
  /** The options every {@code gantry var} listing takes. */
  static final class Format {
    @Option(names = "--csv", description = "print CSV (RFC 4180, a header row) instead of a table")
    boolean csv;

    @Option(
        names = "--current",
        description = "only current figures: leave out those a later run superseded")
    boolean current;
  }

  static final List<String> COLUMNS =
      List.of(
          "businessDate",
          "node",
          "confidence",
          "method",
          "var",
          "expectedShortfall",
          "varStderr",
          "esStderr",
          "runId",
          "horizonDays",
          "scenarios",
          "stagedOutAt",
          "supersededBy",
          "dataSource",
          "varLimit",
          "limitUsagePercent");

  private VarFigures() {}

  static void print(PrintWriter out, Invocation gantry, Format format, List<VarFigureInfo> answer) {
    List<VarFigureInfo> figures =
        format.current ? answer.stream().filter(f -> f.getSupersededBy() == null).toList() : answer;
    new RecordsOutput<>(
            "figures",
            COLUMNS,
            VarFigures::row,
            "no VaR figures (you see only the results data sources you may use)",
            (List<VarFigureInfo> list) -> table(out, list))
        .print(gantry, out, format.csv, figures);
  }

  /** One figure as JSON and CSV carry it: numbers as numbers, absent values as null. */
  private static Map<String, Object> row(VarFigureInfo f) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("businessDate", f.getBusinessDate());
    row.put("node", f.getNode());
    row.put("confidence", f.getConfidence());
    row.put("method", f.getMethod());
    row.put("var", f.getVar());
    row.put("expectedShortfall", f.getExpectedShortfall());
    row.put("varStderr", f.getVarStderr());
    row.put("esStderr", f.getEsStderr());
    row.put("runId", f.getRunId());
    row.put("horizonDays", f.getHorizonDays());
    row.put("scenarios", f.getScenarios());
    row.put("stagedOutAt", f.getStagedOutAt() == null ? null : Times.json(f.getStagedOutAt()));
    row.put("supersededBy", f.getSupersededBy());
    row.put("dataSource", f.getDataSource());
    row.put("varLimit", f.getVarLimit());
    row.put("limitUsagePercent", f.getLimitUsagePercent());
    return row;
  }

  /** The table; LIMIT and USAGE columns only where some figure has a limit (var_limit). */
  private static void table(PrintWriter out, List<VarFigureInfo> figures) {
    boolean limits = figures.stream().anyMatch(f -> f.getVarLimit() != null);
    List<String> headers =
        new ArrayList<>(
            List.of(
                "DATE",
                "NODE",
                "CONF",
                "METHOD",
                "VAR",
                "ES",
                "RUN",
                "STAGED OUT",
                "SUPERSEDED BY"));
    if (limits) {
      headers.addAll(List.of("LIMIT", "USAGE"));
    }
    TextTable table = new TextTable(headers.toArray(String[]::new));
    for (VarFigureInfo f : figures) {
      List<Object> cells =
          new ArrayList<>(
              List.of(
                  f.getBusinessDate(),
                  f.getNode(),
                  f.getConfidence().stripTrailingZeros().toPlainString(),
                  f.getMethod(),
                  money(f.getVar()),
                  money(f.getExpectedShortfall()),
                  f.getRunId(),
                  f.getStagedOutAt() == null ? "-" : Times.text(f.getStagedOutAt()),
                  f.getSupersededBy() == null ? "current" : f.getSupersededBy()));
      if (limits) {
        cells.add(f.getVarLimit() == null ? "-" : money(f.getVarLimit()));
        cells.add(f.getLimitUsagePercent() == null ? "-" : percent(f.getLimitUsagePercent()));
      }
      table.row(cells.toArray());
    }
    table.print(out);
  }

  /** A usage in percent, one decimal: 112.5%. */
  static String percent(double usage) {
    return String.format(Locale.ROOT, "%.1f%%", usage);
  }

  static String money(double amount) {
    return String.format(Locale.ROOT, "%,.2f", amount);
  }
}
