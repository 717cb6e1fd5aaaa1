package io.gantry.server;

import io.gantry.server.config.ConfigException;
import io.gantry.server.config.ServerConfig;
import io.gantry.staging.StageInCache;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry-server cache list|clear}: the stage-in cache under the staging root, for the
 * administrator of the server host (it reads the server's own files, as {@code user} does the job
 * store). Safe while the server runs: a cleared entry is a miss, never a damaged file.
 */
@Command(
    name = "cache",
    mixinStandardHelpOptions = true,
    description =
        "Show or empty the stage-in cache (staging-gateway/README.md, \"Stage-in cache\").",
    subcommands = {CacheCommand.ListEntries.class, CacheCommand.Clear.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "2:bad command line or configuration"})
final class CacheCommand {
  @ParentCommand GantryServerCommand server;

  abstract static class Action implements Callable<Integer> {
    @Mixin ConfigurationOptions configuration;

    @Spec CommandSpec spec;

    @ParentCommand CacheCommand cache;

    @Override
    public Integer call() throws Exception {
      ServerConfig config;
      try {
        ConfigurationOptions before =
            cache == null || cache.server == null ? null : cache.server.configuration;
        config = configuration.orElse(before).load(Map.of());
      } catch (ConfigException e) {
        spec.commandLine().getErr().println("gantry-server: " + e.getMessage());
        return 2;
      }
      return run(
          StageInCache.open(
              GantryServer.stageInCacheDirectory(config), config.stageIn().cacheMaxBytes()),
          spec.commandLine().getOut());
    }

    abstract int run(StageInCache cache, PrintWriter out);
  }

  @Command(
      name = "list",
      description =
          "List the cached extracts, most recently used first: key, bytes, rows,"
              + " extracted, last used, in use by a job, data source, statement.")
  static final class ListEntries extends Action {
    @Override
    int run(StageInCache cache, PrintWriter out) {
      long total = 0;
      for (StageInCache.Entry e : cache.list()) {
        out.println(
            e.key().substring(0, 16)
                + "\t"
                + e.bytes()
                + "\t"
                + e.rows()
                + "\t"
                + e.created()
                + "\t"
                + e.lastUsed()
                + "\t"
                + (e.inUse() ? "in-use" : "idle")
                + "\t"
                + e.source()
                + "\t"
                + e.detail().strip().replaceAll("\\s+", " "));
        total += e.bytes();
      }
      out.println("total " + total + " bytes in " + cache.directory());
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "clear",
      description = "Remove every cached extract; jobs that link one keep their file.")
  static final class Clear extends Action {
    @Override
    int run(StageInCache cache, PrintWriter out) {
      out.println("removed " + cache.clear() + " cached extracts from " + cache.directory());
      out.flush();
      return 0;
    }
  }
}
