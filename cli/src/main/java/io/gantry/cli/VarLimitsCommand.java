package io.gantry.cli;

import io.gantry.cli.soap.VarLimitInfo;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry var limits --date D [--node N] [--breaches]}: VaR against its limits. */
@Command(
    name = "limits",
    mixinStandardHelpOptions = true,
    description =
        "The current VaR of one business date against the VaR limit in force for its node and"
            + " confidence level (var_limit, docs/risk-view.md, \"Limits\"): usage in percent,"
            + " breaches marked BREACH (a VaR above its limit). Nodes without a limit are not"
            + " listed.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var limits --date 2026-11-20",
      "  gantry var limits --date 2026-11-20 --node BANK/GANTRY-EU --breaches --csv",
      ExitCodes.HELP
    })
final class VarLimitsCommand implements Callable<Integer> {
  static final List<String> COLUMNS =
      List.of(
          "businessDate",
          "node",
          "confidence",
          "method",
          "var",
          "varLimit",
          "usagePercent",
          "breached",
          "limitValidFrom",
          "runId",
          "dataSource");

  @ParentCommand VarCommand var;
  @Spec CommandSpec spec;

  @Option(
      names = "--date",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "the business date")
  String date;

  @Option(
      names = "--node",
      paramLabel = "PATH",
      description = "a node and the nodes below it (default: every node)")
  String node;

  @Option(names = "--breaches", description = "only the figures above their limit")
  boolean breaches;

  @Option(names = "--csv", description = "print CSV (RFC 4180, a header row) instead of a table")
  boolean csv;

  @Override
  public Integer call() {
    Invocation gantry = var.gantry;
    List<VarLimitInfo> limits = gantry.connect().call(s -> s.getVarLimits(date, node, breaches));
    PrintWriter out = spec.commandLine().getOut();
    new RecordsOutput<>(
            "limits",
            COLUMNS,
            VarLimitsCommand::row,
            (breaches ? "no limit breaches" : "no VaR figures with a limit")
                + " on "
                + date
                + " (you see only the results data sources you may use)",
            (List<VarLimitInfo> list) -> table(out, list))
        .print(gantry, out, csv, limits);
    return ExitCodes.OK;
  }

  private static void table(PrintWriter out, List<VarLimitInfo> limits) {
    TextTable table =
        new TextTable("DATE", "NODE", "CONF", "METHOD", "VAR", "LIMIT", "USAGE", "STATUS", "RUN");
    for (VarLimitInfo l : limits) {
      table.row(
          l.getBusinessDate(),
          l.getNode(),
          l.getConfidence().stripTrailingZeros().toPlainString(),
          l.getMethod(),
          VarFigures.money(l.getVar()),
          VarFigures.money(l.getVarLimit()),
          VarFigures.percent(l.getUsagePercent()),
          l.isBreached() ? "BREACH" : "ok",
          l.getRunId());
    }
    table.print(out);
  }

  private static Map<String, Object> row(VarLimitInfo l) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("businessDate", l.getBusinessDate());
    row.put("node", l.getNode());
    row.put("confidence", l.getConfidence());
    row.put("method", l.getMethod());
    row.put("var", l.getVar());
    row.put("varLimit", l.getVarLimit());
    row.put("usagePercent", l.getUsagePercent());
    row.put("breached", l.isBreached());
    row.put("limitValidFrom", l.getLimitValidFrom());
    row.put("runId", l.getRunId());
    row.put("dataSource", l.getDataSource());
    return row;
  }
}
