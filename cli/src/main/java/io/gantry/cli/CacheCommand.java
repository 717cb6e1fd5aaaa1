package io.gantry.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry cache list|clear}: the server's stage-in cache, for administrators (others get
 * 'access denied', exit 3). The same as {@code gantry-server cache list|clear} on the server host.
 */
@Command(
    name = "cache",
    mixinStandardHelpOptions = true,
    description = {
      "The server's stage-in cache (SQL extracts and remote files kept for later jobs that ask the"
          + " same): list its entries or clear them. Administrators only; others get 'access"
          + " denied', exit 3."
    },
    subcommands = {CacheListCommand.class, CacheClearCommand.class},
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry cache list",
      "  gantry cache clear --key 3f2a...   # one entry, its key as 'cache list' shows it",
      "  gantry cache clear                 # every entry",
      ExitCodes.HELP
    })
final class CacheCommand implements Runnable {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "say which: gantry cache list, gantry cache clear");
  }
}
