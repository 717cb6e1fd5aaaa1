package io.gantry.cli;

import io.gantry.cli.soap.VarFigureInfo;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry var summary --date D [--node N]}: one business date's figures. */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    description =
        "Every VaR figure of one business date: for a node and the nodes below it, or for every"
            + " node. One row a node, confidence level, method and run.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var summary --date 2026-11-20",
      "  gantry var summary --date 2026-11-20 --node BANK/GANTRY-EU --current",
      "  gantry --json var summary --date 2026-11-20",
      ExitCodes.HELP
    })
final class VarSummaryCommand implements Callable<Integer> {
  @ParentCommand VarCommand var;
  @Spec CommandSpec spec;
  @Mixin VarFigures.Format format;

  @Option(
      names = "--date",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "the business date")
  String date;

  @Option(
      names = "--node",
      paramLabel = "PATH",
      description = "a node and the nodes below it, e.g. BANK/GANTRY-EU (default: every node)")
  String node;

  @Override
  public Integer call() {
    Invocation gantry = var.gantry;
    List<VarFigureInfo> figures = gantry.connect().call(s -> s.getVarSummary(date, node));
    VarFigures.print(spec.commandLine().getOut(), gantry, format, figures);
    return ExitCodes.OK;
  }
}
