package io.gantry.cli;

import io.gantry.cli.soap.StageInCacheEntry;
import io.gantry.cli.soap.StageInCacheList;
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

/** {@code gantry cache list}: the stage-in cache's entries, most recently used first. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "List the stage-in cache's entries, most recently used first: key, size, rows, when"
            + " created and last used, whether a job links it (then it is never evicted), source"
            + " and statement or remote path.",
    footerHeading = "%nExamples:%n",
    footer = {"  gantry cache list", "  gantry cache list --quiet   # keys only", ExitCodes.HELP})
final class CacheListCommand implements Callable<Integer> {
  static final int DETAIL_WIDTH = 60;

  @ParentCommand CacheCommand cache;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Invocation gantry = cache.gantry;
    PrintWriter out = spec.commandLine().getOut();
    ServerConnection server = gantry.connect();
    StageInCacheList list = server.call(s -> s.listStageInCache());
    if (gantry.json) {
      List<Map<String, Object>> entries = new ArrayList<>();
      for (StageInCacheEntry e : list.getEntry()) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("key", e.getKey());
        entry.put("bytes", e.getBytes());
        entry.put("rows", e.getRows());
        entry.put("created", Times.json(e.getCreated()));
        entry.put("lastUsed", Times.json(e.getLastUsed()));
        entry.put("inUse", e.isInUse());
        entry.put("source", e.getSource());
        entry.put("detail", e.getDetail());
        entries.add(entry);
      }
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("endpoint", server.endpoint());
      answer.put("enabled", list.isEnabled());
      answer.put("maxBytes", list.getMaxBytes());
      answer.put("totalBytes", list.getTotalBytes());
      answer.put("entries", entries);
      JsonOutput.print(out, answer);
    } else if (gantry.quiet) {
      list.getEntry().forEach(e -> out.println(e.getKey()));
    } else if (!list.isEnabled()) {
      out.println(
          "The server at "
              + server.endpoint()
              + " runs without a stage-in cache (cache.max-bytes=0).");
    } else {
      out.println(
          list.getEntry().size()
              + " entries, "
              + list.getTotalBytes()
              + " of "
              + list.getMaxBytes()
              + " bytes (cache.max-bytes)");
      if (!list.getEntry().isEmpty()) {
        TextTable table =
            new TextTable("KEY", "BYTES", "ROWS", "LAST USED", "IN USE", "SOURCE", "DETAIL");
        for (StageInCacheEntry e : list.getEntry()) {
          table.row(
              e.getKey(),
              e.getBytes(),
              e.getRows() < 0 ? "-" : Long.toString(e.getRows()),
              Times.text(e.getLastUsed()),
              e.isInUse() ? "yes" : "no",
              e.getSource(),
              oneLine(e.getDetail()));
        }
        table.print(out);
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  private static String oneLine(String text) {
    String line = text == null ? "" : text.strip().replaceAll("\\s+", " ");
    return line.length() <= DETAIL_WIDTH ? line : line.substring(0, DETAIL_WIDTH - 1) + "…";
  }
}
