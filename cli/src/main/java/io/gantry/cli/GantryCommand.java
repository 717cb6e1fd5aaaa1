package io.gantry.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gantry}: the command-line toolkit. Each task is a subcommand class registered below;
 * offline ones (validate) work without a server, the others will speak to its SOAP API.
 *
 * <p>Exit codes, the same for every subcommand: 0 success, 1 the request was understood but
 * the answer is negative (an invalid job), 2 usage or I/O error.
 */
@Command(name = "gantry", mixinStandardHelpOptions = true, versionProvider = GantryVersion.class,
    description = "Submit and manage Gantry jobs (extended JSDL).",
    subcommands = {ValidateCommand.class, CommandLine.HelpCommand.class})
public final class GantryCommand implements Runnable {
  public static final int EXIT_OK = 0;
  public static final int EXIT_NEGATIVE = 1;
  public static final int EXIT_USAGE_OR_IO = 2;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a command is needed, e.g. gantry validate FILE");
  }

  /** The configured command line; tests call this with their own output streams. */
  public static CommandLine commandLine() {
    // picocli answers usage errors with 2 (CommandLine.ExitCode.USAGE) already
    return new CommandLine(new GantryCommand())
        .setExecutionExceptionHandler((e, command, parsed) -> {
          command.getErr().println("gantry: " + e);
          return EXIT_USAGE_OR_IO;
        });
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
