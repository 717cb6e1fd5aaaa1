package io.gantry.cli;

import io.gantry.cli.soap.BacktestInfo;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry var backtest --node N [--date D]}: the backtest job's verdict on a node's VaR. */
@Command(
    name = "backtest",
    mixinStandardHelpOptions = true,
    description =
        "The VaR backtests of one node (that node alone) on one business date, or on the latest"
            + " one when --date is left out: observations, exceptions, the Basel traffic-light"
            + " zone and the p-values of Kupiec's and Christoffersen's tests, one row a"
            + " confidence level, P&L type and run of the backtest job.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var backtest --node BANK",
      "  gantry var backtest --node BANK/GANTRY-EU --date 2026-11-20 --csv",
      "  gantry var backtest --node BANK --exceptions",
      ExitCodes.HELP
    })
final class VarBacktestCommand implements Callable<Integer> {
  static final List<String> COLUMNS =
      List.of(
          "businessDate",
          "node",
          "confidence",
          "pnlType",
          "windowDays",
          "observations",
          "exceptions",
          "expectedExceptions",
          "zone",
          "kupiecPValue",
          "independencePValue",
          "conditionalCoveragePValue",
          "firstDate",
          "lastDate",
          "runId",
          "stagedOutAt",
          "supersededBy",
          "dataSource");

  @ParentCommand VarCommand var;
  @Spec CommandSpec spec;
  @Mixin VarFigures.Format format;

  @Option(
      names = "--node",
      required = true,
      paramLabel = "PATH",
      description = "the node, e.g. BANK")
  String node;

  @Option(
      names = "--date",
      paramLabel = "YYYY-MM-DD",
      description = "the business date (default: the latest with a backtest of the node)")
  String date;

  @Option(
      names = "--exceptions",
      description =
          "list the exceptions instead: each day whose P&L exceeded the VaR of the business day"
              + " before, with both figures")
  boolean exceptions;

  @Override
  public Integer call() {
    Invocation gantry = var.gantry;
    if (exceptions) {
      return VarBacktestExceptions.print(gantry, spec.commandLine().getOut(), format, node, date);
    }
    List<BacktestInfo> answer = gantry.connect().call(s -> s.getVarBacktest(node, date));
    List<BacktestInfo> backtests =
        format.current ? answer.stream().filter(b -> b.getSupersededBy() == null).toList() : answer;
    PrintWriter out = spec.commandLine().getOut();
    new RecordsOutput<>(
            "backtests",
            COLUMNS,
            VarBacktestCommand::row,
            "no backtests (you see only the results data sources you may use)",
            (List<BacktestInfo> list) -> table(out, list))
        .print(gantry, out, format.csv, backtests);
    return ExitCodes.OK;
  }

  private static void table(PrintWriter out, List<BacktestInfo> backtests) {
    TextTable table =
        new TextTable(
            "DATE",
            "NODE",
            "CONF",
            "PNL",
            "OBS",
            "EXC",
            "EXPECTED",
            "ZONE",
            "KUPIEC P",
            "CC P",
            "RUN",
            "SUPERSEDED BY");
    for (BacktestInfo b : backtests) {
      table.row(
          b.getBusinessDate(),
          b.getNode(),
          b.getConfidence().stripTrailingZeros().toPlainString(),
          b.getPnlType(),
          b.getObservations(),
          b.getExceptions() == null ? "-" : b.getExceptions().toString(),
          number(b.getExpectedExceptions()),
          b.getZone() == null ? "-" : b.getZone(),
          number(b.getKupiecPValue()),
          number(b.getConditionalCoveragePValue()),
          b.getRunId(),
          b.getSupersededBy() == null ? "current" : b.getSupersededBy());
    }
    table.print(out);
  }

  private static Map<String, Object> row(BacktestInfo b) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("businessDate", b.getBusinessDate());
    row.put("node", b.getNode());
    row.put("confidence", b.getConfidence());
    row.put("pnlType", b.getPnlType());
    row.put("windowDays", b.getWindowDays());
    row.put("observations", b.getObservations());
    row.put("exceptions", b.getExceptions());
    row.put("expectedExceptions", b.getExpectedExceptions());
    row.put("zone", b.getZone());
    row.put("kupiecPValue", b.getKupiecPValue());
    row.put("independencePValue", b.getIndependencePValue());
    row.put("conditionalCoveragePValue", b.getConditionalCoveragePValue());
    row.put("firstDate", b.getFirstDate());
    row.put("lastDate", b.getLastDate());
    row.put("runId", b.getRunId());
    row.put("stagedOutAt", b.getStagedOutAt() == null ? null : Times.json(b.getStagedOutAt()));
    row.put("supersededBy", b.getSupersededBy());
    row.put("dataSource", b.getDataSource());
    return row;
  }

  private static String number(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.4g", value);
  }
}
