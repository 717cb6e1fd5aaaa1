package io.gantry.testing.cluster;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs a command given as an argument array (never a shell string) and collects its output. */
public final class Commands {
  private Commands() {}

  public static CommandResult run(List<String> command, Duration timeout) {
    return run(command, Map.of(), timeout);
  }

  /**
   * Runs {@code command} with {@code environment} added to this JVM's; kills it after {@code
   * timeout}.
   */
  public static CommandResult run(
      List<String> command, Map<String, String> environment, Duration timeout) {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new IllegalStateException("command " + command + " did not end within " + timeout);
      }
      return new CommandResult(List.copyOf(command), process.exitValue(), out.get(), err.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while running " + command, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot read the output of " + command, e.getCause());
    }
  }

  /** Runs {@code command} and throws unless it exits with 0. */
  public static CommandResult check(List<String> command, Duration timeout) {
    return run(command, timeout).orThrow();
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    // A thread of its own per stream: the common pool may have a single thread on a small
    // machine, and stdout's reader must not wait for stderr's.
    return CompletableFuture.supplyAsync(
        () -> {
          try (stream) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            stream.transferTo(buffer);
            return buffer.toString(StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        task -> {
          Thread thread = new Thread(task, "command-output");
          thread.setDaemon(true);
          thread.start();
        });
  }
}
