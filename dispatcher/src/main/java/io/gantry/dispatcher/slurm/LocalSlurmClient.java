package io.gantry.dispatcher.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs Slurm's client commands on this host as argument arrays (never through a shell) with a given
 * environment and a time limit.
 */
final class LocalSlurmClient implements SlurmClient {
  private final SlurmConfig config;
  private final Map<String, String> environment;

  LocalSlurmClient(SlurmConfig config, Map<String, String> environment) {
    this.config = config;
    this.environment = Map.copyOf(environment);
  }

  @Override
  public Result run(String name, List<String> args) throws IOException {
    return run(name, args, environment);
  }

  /** sbatch passes its own environment to the job: the job's variables travel there. */
  @Override
  public Result submit(List<String> args, Map<String, String> jobEnvironment) throws IOException {
    return run("sbatch", args, jobEnvironment);
  }

  private Result run(String name, List<String> args, Map<String, String> env) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(config.command(name));
    argv.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().clear();
    builder.environment().putAll(env);
    if (config.slurmConf() != null) {
      builder.environment().put("SLURM_CONF", config.slurmConf().toString());
    }
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = builder.start();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    try {
      Duration limit = config.commandTimeout();
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IOException(argv.get(0) + " did not answer within " + limit.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + argv.get(0), e);
    }
    return new Result(List.copyOf(argv), p.exitValue(), out.join(), err.join());
  }

  private static String read(InputStream in) {
    try (in) {
      // A client's answer is small; a runaway one is cut, not buffered without bound.
      return new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
