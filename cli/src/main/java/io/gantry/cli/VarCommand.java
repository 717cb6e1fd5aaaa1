package io.gantry.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry var summary|history|backtest|explain|limits}: the morning risk view's VaR results,
 * read by the server from its results data sources (docs/risk-view.md), never from job directories.
 */
@Command(
    name = "var",
    mixinStandardHelpOptions = true,
    description = {
      "VaR and expected shortfall by business date, node, confidence level and method, as the"
          + " server's results data sources hold them (risk.results-data-sources): every run,"
          + " earlier runs marked with the rerun that superseded them. You see only the data"
          + " sources you may use. A table by default; --json or --csv for programs."
    },
    subcommands = {
      VarSummaryCommand.class,
      VarHistoryCommand.class,
      VarBacktestCommand.class,
      VarExplainCommand.class,
      VarLimitsCommand.class,
      VarBackfillCommand.class
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var summary --date 2026-11-20",
      "  gantry var summary --date 2026-11-20 --node BANK/GANTRY-EU --csv",
      "  gantry var history --node BANK --from 2026-01-01 --to 2026-11-20 --current",
      "  gantry var backtest --node BANK",
      "  gantry var explain --node BANK --from 2026-11-19 --to 2026-11-20",
      "  gantry var limits --date 2026-11-20 --breaches",
      "  gantry var backfill var-history.jsdl --from 2022-09-01 --to 2023-08-31",
      ExitCodes.HELP
    })
final class VarCommand implements Runnable {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "say which: gantry var summary, history, backtest, explain or limits");
  }
}
