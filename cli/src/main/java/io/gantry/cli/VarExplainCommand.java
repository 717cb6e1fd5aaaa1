package io.gantry.cli;

import io.gantry.cli.soap.VarExplainComponent;
import io.gantry.cli.soap.VarExplainFactor;
import io.gantry.cli.soap.VarExplainInfo;
import io.gantry.cli.soap.VarExplainPosition;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.commons.csv.CSVFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry var explain --node N --from D1 --to D2}: why a node's VaR changed. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description =
        "Why the VaR of one node (that node alone) changed from one business date to another:"
            + " the change split into new positions, matured or closed positions, quantity"
            + " changes and market moves (with time) of positions held, and a residual line, which"
            + " add up to the change; then the positions and risk factors that moved it most. From"
            + " the Euler contributions of each date's current run (docs/risk-view.md, \"Explain\")."
            + " One block a data source, confidence level and method.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var explain --node BANK --from 2026-11-19 --to 2026-11-20",
      "  gantry var explain --node BANK/GANTRY-EU/EQUITIES/EQ-EU --from 2026-11-19"
          + " --to 2026-11-20 --top 20 --csv",
      ExitCodes.HELP
    })
final class VarExplainCommand implements Callable<Integer> {
  static final List<String> COLUMNS =
      List.of(
          "dataSource",
          "node",
          "confidence",
          "method",
          "fromDate",
          "toDate",
          "fromRunId",
          "toRunId",
          "fromVar",
          "toVar",
          "section",
          "item",
          "status",
          "factor",
          "fromContribution",
          "toContribution",
          "quantityEffect",
          "marketEffect",
          "change",
          "positions");

  @ParentCommand VarCommand var;
  @Spec CommandSpec spec;

  @Option(
      names = "--node",
      required = true,
      paramLabel = "PATH",
      description = "the node, e.g. BANK")
  String node;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "the first business date")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "the second business date, after the first")
  String to;

  @Option(
      names = "--top",
      paramLabel = "N",
      description = "how many positions and factors to list (1 to 1000, default 10)")
  Integer top;

  @Option(names = "--csv", description = "print CSV (RFC 4180, a header row) instead of a table")
  boolean csv;

  @Override
  public Integer call() {
    Invocation gantry = var.gantry;
    List<VarExplainInfo> explains =
        gantry.connect().call(s -> s.getVarExplain(node, from, to, top));
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      List<Map<String, Object>> rows = new ArrayList<>();
      explains.forEach(e -> rows.add(json(e)));
      JsonOutput.print(out, Map.of("explains", rows));
    } else if (csv) {
      out.print(CSVFormat.RFC4180.format(COLUMNS.toArray()) + "\n");
      explains.forEach(e -> csv(out, e));
    } else if (explains.isEmpty()) {
      if (!gantry.quiet) {
        out.println(
            "no current VaR figures of "
                + node
                + " on both dates (you see only the results data sources you may use)");
      }
    } else {
      for (int i = 0; i < explains.size(); i++) {
        if (i > 0) {
          out.println();
        }
        table(out, explains.get(i));
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static Map<String, Object> json(VarExplainInfo e) {
    Map<String, Object> row = head(e);
    List<Map<String, Object>> components = new ArrayList<>();
    e.getComponent().forEach(c -> components.add(component(c)));
    row.put("components", components);
    List<Map<String, Object>> positions = new ArrayList<>();
    e.getPosition().forEach(p -> positions.add(position(p)));
    row.put("positions", positions);
    List<Map<String, Object>> factors = new ArrayList<>();
    e.getFactor().forEach(f -> factors.add(factor(f)));
    row.put("factors", factors);
    return row;
  }

  /** What every CSV row of one explain starts with, and the JSON document's own fields. */
  private static Map<String, Object> head(VarExplainInfo e) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("dataSource", e.getDataSource());
    row.put("node", e.getNode());
    row.put("confidence", e.getConfidence());
    row.put("method", e.getMethod());
    row.put("fromDate", e.getFromDate());
    row.put("toDate", e.getToDate());
    row.put("fromRunId", e.getFromRunId());
    row.put("toRunId", e.getToRunId());
    row.put("fromVar", e.getFromVar());
    row.put("toVar", e.getToVar());
    row.put("change", e.getChange());
    return row;
  }

  private static Map<String, Object> component(VarExplainComponent c) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("name", c.getName());
    row.put("amount", c.getAmount());
    row.put("positions", c.getPositions());
    return row;
  }

  private static Map<String, Object> position(VarExplainPosition p) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("positionId", p.getPositionId());
    row.put("status", p.getStatus());
    row.put("factor", p.getFactor());
    row.put("fromContribution", p.getFromContribution());
    row.put("toContribution", p.getToContribution());
    row.put("quantityEffect", p.getQuantityEffect());
    row.put("marketEffect", p.getMarketEffect());
    row.put("change", p.getChange());
    return row;
  }

  private static Map<String, Object> factor(VarExplainFactor f) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("factor", f.getFactor());
    row.put("change", f.getChange());
    row.put("positions", f.getPositions());
    return row;
  }

  /** One row a component, a position and a factor, in the columns of {@link #COLUMNS}. */
  private static void csv(PrintWriter out, VarExplainInfo e) {
    List<Object> head = new ArrayList<>(head(e).values());
    head.remove(head.size() - 1); // change is a column of each row
    for (VarExplainComponent c : e.getComponent()) {
      record(
          out,
          head,
          "component",
          c.getName(),
          null,
          null,
          null,
          null,
          null,
          null,
          c.getAmount(),
          c.getPositions());
    }
    for (VarExplainPosition p : e.getPosition()) {
      record(
          out,
          head,
          "position",
          p.getPositionId(),
          p.getStatus(),
          p.getFactor(),
          p.getFromContribution(),
          p.getToContribution(),
          p.getQuantityEffect(),
          p.getMarketEffect(),
          p.getChange(),
          null);
    }
    for (VarExplainFactor f : e.getFactor()) {
      record(
          out,
          head,
          "factor",
          f.getFactor(),
          null,
          f.getFactor(),
          null,
          null,
          null,
          null,
          f.getChange(),
          f.getPositions());
    }
  }

  private static void record(PrintWriter out, List<Object> head, Object... cells) {
    List<Object> row = new ArrayList<>(head);
    row.addAll(java.util.Arrays.asList(cells));
    out.print(CSVFormat.RFC4180.format(row.toArray()) + "\n");
  }

  private static void table(PrintWriter out, VarExplainInfo e) {
    out.println(
        e.getNode()
            + "  "
            + e.getConfidence().stripTrailingZeros().toPlainString()
            + "  "
            + e.getMethod()
            + "  (data source "
            + e.getDataSource()
            + ")");
    TextTable components = new TextTable("COMPONENT", "CHANGE", "POSITIONS");
    components.row(
        "VaR " + e.getFromDate() + " (run " + e.getFromRunId() + ")",
        VarFigures.money(e.getFromVar()),
        "");
    for (VarExplainComponent c : e.getComponent()) {
      components.row(
          c.getName(),
          VarFigures.money(c.getAmount()),
          c.getName().startsWith("residual") ? "" : c.getPositions());
    }
    components.row(
        "VaR " + e.getToDate() + " (run " + e.getToRunId() + ")",
        VarFigures.money(e.getToVar()),
        "");
    components.row("change", VarFigures.money(e.getChange()), "");
    components.print(out);
    out.println();
    TextTable positions =
        new TextTable("POSITION", "STATUS", "FACTOR", "FROM", "TO", "QUANTITY", "MARKET", "CHANGE");
    for (VarExplainPosition p : e.getPosition()) {
      positions.row(
          p.getPositionId(),
          p.getStatus(),
          p.getFactor(),
          p.getFromContribution() == null ? "-" : VarFigures.money(p.getFromContribution()),
          p.getToContribution() == null ? "-" : VarFigures.money(p.getToContribution()),
          VarFigures.money(p.getQuantityEffect()),
          VarFigures.money(p.getMarketEffect()),
          VarFigures.money(p.getChange()));
    }
    positions.print(out);
    if (!e.getFactor().isEmpty()) {
      out.println();
      TextTable factors = new TextTable("FACTOR", "CHANGE", "POSITIONS");
      for (VarExplainFactor f : e.getFactor()) {
        factors.row(f.getFactor(), VarFigures.money(f.getChange()), f.getPositions());
      }
      factors.print(out);
    }
  }
}
