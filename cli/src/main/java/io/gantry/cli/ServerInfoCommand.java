package io.gantry.cli;

import io.gantry.cli.soap.ServerInfo;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gantry server-info}: also the quickest check that --server points at a live server. */
@Command(
    name = "server-info",
    mixinStandardHelpOptions = true,
    description = {
      "Show the server's version, API namespace and limits (compute slots, "
          + "queued jobs per user, job description size).",
      "Exit 3 when the server cannot be reached."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry --server https://hpc-gw.example.org:8443 server-info", ExitCodes.HELP})
final class ServerInfoCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ServerConnection server = gantry.connect();
    ServerInfo info = server.call(s -> s.getServerInfo());
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.serverInfo(server.endpoint(), info));
      return ExitCodes.OK;
    }
    if (gantry.quiet) {
      out.println(info.getVersion());
    } else {
      TextTable table = new TextTable("SERVER", server.endpoint());
      table.row("version", info.getVersion());
      table.row("API namespace", info.getApiNamespace());
      table.row("compute slots", info.getTotalSlots());
      table.row("queued jobs per user", info.getMaxQueuedJobsPerUser());
      table.row("job description size", info.getMaxJobDefinitionBytes() + " bytes at most");
      table.row(
          "password key",
          info.getPasswordKeyFingerprint() == null
              ? "none (password encryption not enabled)"
              : info.getPasswordKeyFingerprint());
      table.print(out);
    }
    out.flush();
    return ExitCodes.OK;
  }
}
