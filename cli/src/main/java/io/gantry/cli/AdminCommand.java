package io.gantry.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code gantry admin ...}: what administrators do over the API while the server runs. Its one
 * group today is {@code user} ({@link AdminUserCommand}).
 */
@Command(
    name = "admin",
    mixinStandardHelpOptions = true,
    description = "Administer the server while it runs (administrators only).",
    subcommands = {AdminUserCommand.class, AdminAccountingCommand.class})
final class AdminCommand {
  @ParentCommand Invocation gantry;
}
