package io.gantry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.server.config.Setting;
import io.gantry.server.config.Settings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** gantry-server settings prints every setting the loader accepts. */
class SettingsCommandTest {

  @Test
  void everySettingIsPrintedWithItsDefaultAndMeaning() {
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(new GantryServerCommand());
    command.setOut(new PrintWriter(out));
    assertEquals(0, command.execute("settings"));
    List<String> lines = out.toString().lines().toList();
    assertEquals("| setting | default | values | meaning |", lines.get(0));
    assertEquals(Settings.all().size() + 2, lines.size());
    assertTrue(
        lines.contains("| `listen.port` | `8443` | 0..65535 | port; 0 picks a free one |"),
        lines.toString());
    for (Setting<?> s : Settings.all()) {
      assertTrue(
          lines.stream()
              .anyMatch(l -> l.startsWith("| `" + s.key() + "` | " + s.shownDefault() + " | ")),
          s.key());
    }
  }
}
