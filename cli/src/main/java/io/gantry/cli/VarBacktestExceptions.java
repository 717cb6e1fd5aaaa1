package io.gantry.cli;

import io.gantry.cli.soap.BacktestExceptionInfo;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code gantry var backtest --node N --exceptions}: the days on which a node's P&amp;L exceeded
 * its VaR of the business day before, as the backtest job listed them (backtest_exceptions).
 */
final class VarBacktestExceptions {
  static final List<String> COLUMNS =
      List.of(
          "businessDate",
          "node",
          "confidence",
          "pnlType",
          "varDate",
          "pnlDate",
          "var",
          "pnl",
          "runId",
          "supersededBy",
          "dataSource");

  private VarBacktestExceptions() {}

  static int print(
      Invocation gantry, PrintWriter out, VarFigures.Format format, String node, String date) {
    List<BacktestExceptionInfo> answer =
        gantry.connect().call(s -> s.getVarBacktestExceptions(node, date));
    List<BacktestExceptionInfo> days =
        format.current ? answer.stream().filter(d -> d.getSupersededBy() == null).toList() : answer;
    new RecordsOutput<>(
            "exceptions",
            COLUMNS,
            VarBacktestExceptions::row,
            "no backtest exceptions (you see only the results data sources you may use)",
            (List<BacktestExceptionInfo> list) -> table(out, list))
        .print(gantry, out, format.csv, days);
    return ExitCodes.OK;
  }

  private static void table(PrintWriter out, List<BacktestExceptionInfo> days) {
    TextTable table =
        new TextTable(
            "DATE",
            "NODE",
            "CONF",
            "PNL",
            "VAR DATE",
            "PNL DATE",
            "VAR",
            "P&L",
            "RUN",
            "SUPERSEDED BY");
    for (BacktestExceptionInfo d : days) {
      table.row(
          d.getBusinessDate(),
          d.getNode(),
          d.getConfidence().stripTrailingZeros().toPlainString(),
          d.getPnlType(),
          d.getVarDate(),
          d.getPnlDate(),
          String.format(Locale.ROOT, "%.2f", d.getVar()),
          String.format(Locale.ROOT, "%.2f", d.getPnl()),
          d.getRunId(),
          d.getSupersededBy() == null ? "current" : d.getSupersededBy());
    }
    table.print(out);
  }

  private static Map<String, Object> row(BacktestExceptionInfo d) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("businessDate", d.getBusinessDate());
    row.put("node", d.getNode());
    row.put("confidence", d.getConfidence());
    row.put("pnlType", d.getPnlType());
    row.put("varDate", d.getVarDate());
    row.put("pnlDate", d.getPnlDate());
    row.put("var", d.getVar());
    row.put("pnl", d.getPnl());
    row.put("runId", d.getRunId());
    row.put("supersededBy", d.getSupersededBy());
    row.put("dataSource", d.getDataSource());
    return row;
  }
}
