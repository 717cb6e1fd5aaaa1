package io.gantry.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code application.ID.*} and {@code filesystem.NAME.*} settings into {@link
 * ServerConfig.JsdlResources}, checking each when loaded: a named application needs an
 * executable, a known kind and a process count in range, and no two share a name and version; a
 * file system's directory must exist.
 */
final class JsdlResourceSettings {
  private final Properties settings;
  private final Pattern applicationKey;
  private final Pattern fileSystemKey;

  JsdlResourceSettings(Properties settings, Pattern applicationKey, Pattern fileSystemKey) {
    this.settings = settings;
    this.applicationKey = applicationKey;
    this.fileSystemKey = fileSystemKey;
  }

  ServerConfig.JsdlResources read() {
    Map<String, Path> fileSystems = fileSystems();
    return new ServerConfig.JsdlResources(applications(), fileSystems, readOnly(fileSystems.keySet()));
  }

  private List<NamedApplication> applications() {
    List<NamedApplication> result = new ArrayList<>();
    Set<String> labels = new HashSet<>();
    for (String id : names(applicationKey)) {
      NamedApplication app = application(id);
      if (!labels.add(app.name() + "\u0000" + app.version())) {
        throw new ConfigException("application." + id + ".version", "another application is already "
            + app.label() + "; give each version of " + app.name() + " its own application.ID with its own version");
      }
      result.add(app);
    }
    return result;
  }

  private NamedApplication application(String id) {
    String prefix = "application." + id + ".";
    String executable = text(prefix + "executable", null);
    if (executable == null) {
      throw new ConfigException(prefix + "executable", "is required: the program application " + id + " runs");
    }
    NamedApplication.Kind kind = switch (text(prefix + "kind", "posix").toLowerCase(Locale.ROOT)) {
      case "posix" -> NamedApplication.Kind.POSIX;
      case "mpirun" -> NamedApplication.Kind.MPIRUN;
      default -> throw new ConfigException(prefix + "kind", "must be mpirun or posix, not " + settings.getProperty(prefix + "kind"));
    };
    int processes = processes(prefix + "processes");
    if (kind == NamedApplication.Kind.POSIX && processes != 1) {
      throw new ConfigException(prefix + "processes", "a posix application runs one process; set kind=mpirun for " + processes);
    }
    String name = text(prefix + "name", id);
    if (!name.matches("[^\\s]+")) {
      throw new ConfigException(prefix + "name", "must be one word, not '" + name + "'");
    }
    return new NamedApplication(id, name, text(prefix + "version", ""), kind, executable,
        words(prefix + "arguments", "\\s+"), processes, new TreeSet<>(words(prefix + "users", "[\\s,]+")),
        text(prefix + "description", ""));
  }

  private Map<String, Path> fileSystems() {
    Map<String, Path> result = new TreeMap<>();
    for (String name : names(fileSystemKey)) {
      String key = "filesystem." + name + ".path";
      String path = text(key, null);
      if (path == null) {
        throw new ConfigException(key, "is required: the directory behind file system " + name);
      }
      Path dir = Path.of(path).toAbsolutePath().normalize();
      if (!Files.isDirectory(dir)) {
        throw new ConfigException(key, dir + " is not a directory; create it or correct the path");
      }
      result.put(name, dir);
    }
    return result;
  }

  /** The file systems a job's sandbox shows read-only: staging still writes them, the job cannot. */
  private Set<String> readOnly(Set<String> names) {
    Set<String> result = new TreeSet<>();
    for (String name : names) {
      String key = "filesystem." + name + ".read-only";
      String value = text(key, "false").toLowerCase(Locale.ROOT);
      if (!value.equals("true") && !value.equals("false")) {
        throw new ConfigException(key, "must be true or false, not '" + value + "'");
      }
      if (value.equals("true")) {
        result.add(name);
      }
    }
    return result;
  }

  private Set<String> names(Pattern key) {
    Set<String> names = new TreeSet<>();
    for (String k : settings.stringPropertyNames()) {
      Matcher m = key.matcher(k);
      if (m.matches()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  private int processes(String key) {
    String value = settings.getProperty(key);
    if (value == null) {
      return 1;
    }
    try {
      int n = Integer.parseInt(value.strip());
      if (n < 1 || n > 1_000_000) {
        throw new ConfigException(key, n + " is outside 1..1000000");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new ConfigException(key, "'" + value + "' is not a whole number");
    }
  }

  private String text(String key, String fallback) {
    String value = settings.getProperty(key);
    if (value == null) {
      return fallback;
    }
    if (value.isBlank()) {
      throw new ConfigException(key, "is empty");
    }
    return value.strip();
  }

  private List<String> words(String key, String separator) {
    String value = settings.getProperty(key, "").strip();
    return value.isEmpty() ? List.of() : Arrays.asList(value.split(separator));
  }
}
