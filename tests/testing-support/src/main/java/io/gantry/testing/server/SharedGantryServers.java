package io.gantry.testing.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * Servers shared by the tests of one JVM, as JUnit extensions hand them out: started on first use,
 * each in a temporary directory of its own, stopped when the test run ends. For suites of many
 * small tests that only talk to a server (the CLI's commands), where a server per class would cost
 * more than the tests.
 */
public final class SharedGantryServers {
  private static final Namespace NAMESPACE = Namespace.create(SharedGantryServers.class);

  /** How to build a shared server in {@code dir}. */
  @FunctionalInterface
  public interface Definition {
    GantryTestServerBuilder builder(Path dir);
  }

  private SharedGantryServers() {}

  /** The server called {@code name}, started from {@code definition} on first use. */
  public static GantryTestServer get(ExtensionContext context, String name, Definition definition) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(name, key -> start(name, definition), Shared.class)
        .server();
  }

  private static Shared start(String name, Definition definition) {
    try {
      Path dir = Files.createTempDirectory("gantry-shared-" + name);
      return new Shared(definition.builder(dir).name(name).start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the shared gantry-server " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while starting the shared gantry-server " + name, e);
    }
  }

  /** The store closes what it holds at the end of the run (AutoCloseable values, JUnit 5.13+). */
  private record Shared(GantryTestServer server) implements AutoCloseable {
    @Override
    public void close() {
      server.close();
    }
  }
}
