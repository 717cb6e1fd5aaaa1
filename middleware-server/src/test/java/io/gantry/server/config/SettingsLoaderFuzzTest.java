package io.gantry.server.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Fuzz test of the settings loader (docs/reliability.md): any configuration file gives a checked
 * configuration or a ConfigException naming the setting, never another exception (which the
 * operator would see as a stack trace). Without JAZZER_FUZZ the kept inputs
 * (src/test/resources/io/gantry/server/config/SettingsLoaderFuzzTestInputs/load/) run once.
 */
class SettingsLoaderFuzzTest {
  private static final Path FILE;

  static {
    try {
      FILE = Files.createTempFile("gantry-settings-fuzz", ".properties");
      FILE.toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void load(byte[] file) throws IOException {
    Files.write(FILE, file);
    try {
      new ServerConfigLoader().load(FILE, Map.of());
    } catch (ConfigException refused) {
      // a bad setting, named: what the loader promises
    }
  }
}
