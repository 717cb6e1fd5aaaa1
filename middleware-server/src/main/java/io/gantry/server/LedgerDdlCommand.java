package io.gantry.server;

import io.gantry.staging.StageOutLedgerDdl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-server ledger-ddl}: prints the stage-out ledger's DDL and grants for a DBA. The
 * ledger ({@code gantry_stage_out_ledger}) lives in each database that jobs stage out to; created
 * by whichever stage-out user writes first, it would belong to that user, and every other one would
 * get "permission denied". Needs no configuration and touches no database.
 */
@Command(
    name = "ledger-ddl",
    mixinStandardHelpOptions = true,
    description = {
      "Print the SQL that creates the stage-out ledger table gantry_stage_out_ledger and grants"
          + " SELECT, INSERT on it, for the owner of each database that jobs stage out to to run once.",
      "See staging-gateway/README.md (Stage-out ledger)."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:printed", "2:bad command line"})
final class LedgerDdlCommand implements Callable<Integer> {
  @Option(
      names = "--dialect",
      paramLabel = "DB",
      defaultValue = "postgresql",
      description = "postgresql (default) or h2")
  String dialect;

  @Option(
      names = "--grant-to",
      paramLabel = "USER",
      description =
          "a database user that stage-out connects as (datasource.NAME.user); repeatable."
              + " Without it the GRANT is printed commented out, to fill in")
  List<String> users = new ArrayList<>();

  @Override
  public Integer call() {
    try {
      System.out.print(StageOutLedgerDdl.script(StageOutLedgerDdl.Dialect.of(dialect), users));
      return 0;
    } catch (IllegalArgumentException e) {
      System.err.println("gantry-server ledger-ddl: " + e.getMessage());
      return 2;
    }
  }
}
