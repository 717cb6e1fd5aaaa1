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

/** {@code gantry var history --node N --from D1 --to D2}: one node's figures over time. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description =
        "Every VaR figure of one node (that node alone, not the nodes below it) on the business"
            + " dates from --from to --to inclusive, oldest first.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var history --node BANK --from 2026-11-01 --to 2026-11-20",
      "  gantry var history --node BANK --from 2026-01-01 --to 2026-11-20 --current --csv",
      ExitCodes.HELP
    })
final class VarHistoryCommand implements Callable<Integer> {
  @ParentCommand VarCommand var;
  @Spec CommandSpec spec;
  @Mixin VarFigures.Format format;

  @Option(
      names = "--node",
      required = true,
      paramLabel = "PATH",
      description = "the node, e.g. BANK/GANTRY-EU")
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
      description = "the last business date")
  String to;

  @Override
  public Integer call() {
    Invocation gantry = var.gantry;
    List<VarFigureInfo> figures = gantry.connect().call(s -> s.getVarHistory(node, from, to));
    VarFigures.print(spec.commandLine().getOut(), gantry, format, figures);
    return ExitCodes.OK;
  }
}
