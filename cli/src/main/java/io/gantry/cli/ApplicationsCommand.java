package io.gantry.cli;

import io.gantry.cli.soap.Application;
import io.gantry.cli.soap.ServerInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry applications}: the named applications the server runs for the caller, i.e. what a
 * job may give as {@code jsdl:ApplicationName} and {@code jsdl:ApplicationVersion}.
 */
@Command(
    name = "applications",
    mixinStandardHelpOptions = true,
    description = {
      "List the applications the server runs by name for you: what a job may give as "
          + "ApplicationName (and ApplicationVersion) instead of a program.",
      "Exit 3 when the server cannot be reached."
    },
    footerHeading = "%nExample:%n",
    footer = {"  gantry applications", ExitCodes.HELP})
final class ApplicationsCommand implements Callable<Integer> {
  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ServerConnection server = gantry.connect();
    ServerInfo info = server.call(s -> s.getServerInfo());
    List<Application> applications = info.getApplication();
    if (gantry.json) {
      List<Map<String, Object>> json = new ArrayList<>();
      for (Application a : applications) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", a.getName());
        entry.put("version", a.getVersion());
        entry.put("kind", a.getKind());
        entry.put("processes", a.getProcesses());
        entry.put("description", a.getDescription());
        json.add(entry);
      }
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("endpoint", server.endpoint());
      answer.put("applications", json);
      JsonOutput.print(out, answer);
    } else if (gantry.quiet) {
      applications.forEach(
          a ->
              out.println(
                  a.getVersion() == null ? a.getName() : a.getName() + " " + a.getVersion()));
    } else if (applications.isEmpty()) {
      out.println(
          "The server at "
              + server.endpoint()
              + " offers you no named applications;"
              + " describe the program in the job (POSIXApplication, MpirunApplication, ...).");
    } else {
      TextTable table = new TextTable("NAME", "VERSION", "KIND", "PROCESSES", "DESCRIPTION");
      for (Application a : applications) {
        table.row(
            a.getName(),
            a.getVersion() == null ? "-" : a.getVersion(),
            a.getKind(),
            a.getProcesses(),
            a.getDescription() == null ? "" : a.getDescription());
      }
      table.print(out);
    }
    out.flush();
    return ExitCodes.OK;
  }
}
