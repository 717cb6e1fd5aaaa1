package io.gantry.server;

import io.gantry.server.config.Setting;
import io.gantry.server.config.Settings;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server settings}: every setting the server accepts, with its default, what its
 * values look like and what it means, as a Markdown table, printed from the definitions the loader
 * reads with (so it is never out of date; configuration.md has the long explanations).
 */
@Command(
    name = "settings",
    mixinStandardHelpOptions = true,
    description = {
      "Print every setting of the configuration file: default, values, meaning (a Markdown table).",
      "NAME and ID stand for names you choose (datasource.risk.url)."
    })
final class SettingsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.println("| setting | default | values | meaning |");
    out.println("|---|---|---|---|");
    for (Setting<?> s : Settings.all()) {
      out.println(
          "| `"
              + s.key()
              + "` | "
              + s.shownDefault()
              + " | "
              + s.type().syntax().replace("|", "\\|")
              + " | "
              + s.meaning()
              + " |");
    }
    out.flush();
    return 0;
  }
}
