package io.gantry.cli;

import io.gantry.cli.soap.SessionToken;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry session list|revoke}: the session tokens the server issued to you (each gantry
 * login on each machine is one), and revoking one, e.g. of a laptop that was lost. Administrators
 * list and revoke every user's.
 */
@Command(
    name = "session",
    mixinStandardHelpOptions = true,
    description = {
      "List your session tokens (one per gantry login that has not expired), or revoke one."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry session list",
      "  gantry session revoke 3f9a0c1d2e4b5a67",
      "  gantry session list --all            # administrators: every user's",
      ExitCodes.HELP
    })
final class SessionCommand {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List session tokens.")
  int list(
      @Option(names = "--all", description = "every user's (administrators only)") boolean all) {
    List<SessionToken> tokens = gantry.connect().call(s -> s.listSessionTokens(all));
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (SessionToken t : tokens) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("tokenId", t.getTokenId());
        row.put("user", t.getUser());
        row.put("description", t.getDescription());
        row.put("created", Times.json(t.getCreated()));
        row.put("expires", Times.json(t.getExpires()));
        rows.add(row);
      }
      JsonOutput.print(out, Map.of("sessions", rows));
    } else {
      TextTable table = new TextTable("ID", "USER", "CREATED", "EXPIRES", "DESCRIPTION");
      for (SessionToken t : tokens) {
        table.row(
            t.getTokenId(),
            t.getUser(),
            Times.text(t.getCreated()),
            Times.text(t.getExpires()),
            t.getDescription() == null ? "-" : t.getDescription());
      }
      table.print(out);
    }
    out.flush();
    return ExitCodes.OK;
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Revoke a session token: the next command using it is refused.")
  int revoke(@Parameters(paramLabel = "ID", description = "the token's id") String id) {
    boolean revoked = gantry.connect().call(s -> s.revokeSessionToken(id));
    if (!revoked) {
      throw new CommandFailure(ExitCodes.NOT_FOUND, "no session token " + id + " of yours");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!gantry.quiet) {
      out.println("revoked session token " + id);
    }
    out.flush();
    return ExitCodes.OK;
  }
}
