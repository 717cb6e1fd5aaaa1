package io.gantry.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry cache clear [--key K]}: removes one entry of the stage-in cache, or all of them.
 */
@Command(
    name = "clear",
    mixinStandardHelpOptions = true,
    description =
        "Remove the stage-in cache's entry with --key, or every entry. The next job that asks"
            + " extracts or fetches again; jobs that link an entry keep their file. Exit 1 when"
            + " --key names no entry.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry cache clear",
      "  gantry cache clear --key $(gantry cache list --quiet | head -1)",
      ExitCodes.HELP
    })
final class CacheClearCommand implements Callable<Integer> {
  @ParentCommand CacheCommand cache;
  @Spec CommandSpec spec;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description = "only this entry (64 hex digits, as 'gantry cache list' shows it)")
  String key;

  @Override
  public Integer call() {
    Invocation gantry = cache.gantry;
    if (key != null && !key.matches("[0-9a-f]{64}")) {
      throw new ParameterException(
          spec.commandLine(), "--key: '" + key + "' is not an entry's key (64 hex digits)");
    }
    PrintWriter out = spec.commandLine().getOut();
    ServerConnection server = gantry.connect();
    int removed = server.call(s -> s.clearStageInCache(key));
    if (gantry.json) {
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("endpoint", server.endpoint());
      answer.put("key", key);
      answer.put("removed", removed);
      JsonOutput.print(out, answer);
    } else if (gantry.quiet) {
      out.println(removed);
    } else if (key != null && removed == 0) {
      spec.commandLine().getErr().println("gantry: no stage-in cache entry " + key);
      spec.commandLine().getErr().flush();
    } else {
      out.println("removed " + removed + (removed == 1 ? " entry" : " entries"));
    }
    out.flush();
    return key != null && removed == 0 ? ExitCodes.NEGATIVE : ExitCodes.OK;
  }
}
