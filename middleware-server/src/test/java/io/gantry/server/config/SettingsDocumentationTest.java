package io.gantry.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * configuration.md documents exactly the settings of {@link Settings}, each with the default the
 * loader uses: its tables with a "setting | default | meaning" header are read row by row.
 */
class SettingsDocumentationTest {
  private static final Path DOC = Path.of("docs", "configuration.md");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  @Test
  void everySettingIsDocumentedWithItsDefault() throws Exception {
    Map<String, String> documented = documentedDefaults();
    List<String> problems = new ArrayList<>();
    for (Setting<?> setting : Settings.all()) {
      String shown = documented.get(setting.key());
      if (shown == null) {
        problems.add(setting.key() + " is not in a settings table of " + DOC);
      } else if (!shown.equals(setting.shownDefault())) {
        problems.add(
            setting.key()
                + ": documented default '"
                + shown
                + "', defined '"
                + setting.shownDefault()
                + "'");
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void everyDocumentedSettingIsOneTheServerKnows() throws Exception {
    Set<String> known = Settings.all().stream().map(Setting::key).collect(Collectors.toSet());
    Set<String> unknown = new TreeSet<>(documentedDefaults().keySet());
    unknown.removeAll(known);
    assertEquals(
        Set.of(), unknown, "documented in " + DOC + " but not defined in a section of Settings");
  }

  /**
   * Each documented key and its default cell. A first cell {@code `a.b-file` / `a.b-env`} (or
   * {@code / `b-env`}, a sibling of the first) documents each key with the same default.
   */
  static Map<String, String> documentedDefaults() throws Exception {
    Map<String, String> defaults = new LinkedHashMap<>();
    boolean inTable = false;
    for (String line : Files.readAllLines(DOC)) {
      if (!line.startsWith("|")) {
        inTable = false;
        continue;
      }
      List<String> cells = cells(line);
      if (cells.size() >= 3
          && cells.get(0).equalsIgnoreCase("setting")
          && cells.get(1).equalsIgnoreCase("default")) {
        inTable = true;
        continue;
      }
      if (!inTable || cells.get(0).startsWith("---")) {
        continue;
      }
      String first = null;
      for (String part : cells.get(0).split(" / ")) {
        Matcher m = CODE.matcher(part);
        if (!m.find()) {
          continue;
        }
        String key = m.group(1);
        if (first != null && !key.contains(".")) {
          key = first.substring(0, first.lastIndexOf('.') + 1) + key;
        }
        first = first == null ? key : first;
        defaults.put(key, cells.get(1));
      }
    }
    return defaults;
  }

  private static List<String> cells(String row) {
    String inner = row.strip();
    inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
    List<String> cells = new ArrayList<>();
    for (String cell : inner.split("\\|", -1)) {
      cells.add(cell.strip());
    }
    return cells;
  }
}
