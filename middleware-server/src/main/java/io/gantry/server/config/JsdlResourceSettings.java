package io.gantry.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code application.ID.*} and {@code filesystem.NAME.path} settings, read into {@link
 * ServerConfig.JsdlResources} and checked when loaded: a named application needs an executable, a
 * known kind and a process count in range, and no two share a name and version; a file system's
 * directory must exist.
 */
final class JsdlResourceSettings {
  private JsdlResourceSettings() {}

  static final Setting<String> APPLICATION_EXECUTABLE =
      Setting.of("application.ID.executable", SettingType.text())
          .shownDefault("(required)")
          .means("the program of named application ID");
  static final Setting<String> APPLICATION_NAME =
      Setting.of("application.ID.name", SettingType.word("[^\\s]+", "one word"))
          .shownDefault("`ID`")
          .means("the ApplicationName jobs use");
  static final Setting<String> APPLICATION_VERSION =
      Setting.of("application.ID.version", SettingType.text()).means("the ApplicationVersion");
  static final Setting<String> APPLICATION_KIND =
      Setting.of("application.ID.kind", SettingType.text())
          .byDefault("posix")
          .means("mpirun or posix");
  static final Setting<List<String>> APPLICATION_ARGUMENTS =
      Setting.of("application.ID.arguments", SettingType.arguments())
          .means("the program's arguments, separated by white space");
  static final Setting<Integer> APPLICATION_PROCESSES =
      Setting.of("application.ID.processes", SettingType.integer(1, 1_000_000))
          .byDefault("1")
          .means("default process count (mpirun kind only)");
  static final Setting<List<String>> APPLICATION_USERS =
      Setting.of("application.ID.users", SettingType.words())
          .shownDefault("every user")
          .means("Gantry users who may run it");
  static final Setting<String> APPLICATION_DESCRIPTION =
      Setting.of("application.ID.description", SettingType.text())
          .means("one line shown by gantry applications and getServerInfo");
  static final Setting<Path> FILESYSTEM_PATH =
      Setting.of("filesystem.NAME.path", SettingType.path())
          .namedBy("[A-Za-z_][A-Za-z0-9_.-]*")
          .means("the directory behind JSDL file system NAME");
  static final Setting<Boolean> FILESYSTEM_READ_ONLY =
      Setting.of("filesystem.NAME.read-only", SettingType.bool())
          .byDefault("false")
          .namedBy("[A-Za-z_][A-Za-z0-9_.-]*")
          .means("jobs see file system NAME read-only, and staging does not write it");
  static final Setting<Boolean> FILESYSTEM_STAGING_WRITES =
      Setting.of("filesystem.NAME.staging-writes", SettingType.bool())
          .byDefault("false")
          .namedBy("[A-Za-z_][A-Za-z0-9_.-]*")
          .means(
              "true: stage-in and DeleteOnTermination may write read-only file system NAME (as the"
                  + " job's OS account)");

  static ServerConfig.JsdlResources read(SettingValues values) {
    Map<String, Path> fileSystems = fileSystems(values);
    return new ServerConfig.JsdlResources(
        applications(values),
        fileSystems,
        readOnly(values, fileSystems.keySet()),
        stagingWrites(values, fileSystems.keySet()));
  }

  private static List<NamedApplication> applications(SettingValues values) {
    List<NamedApplication> result = new ArrayList<>();
    Set<String> labels = new HashSet<>();
    for (String id :
        values.names(
            APPLICATION_EXECUTABLE,
            APPLICATION_NAME,
            APPLICATION_VERSION,
            APPLICATION_KIND,
            APPLICATION_ARGUMENTS,
            APPLICATION_PROCESSES,
            APPLICATION_USERS,
            APPLICATION_DESCRIPTION)) {
      NamedApplication app = application(values, id);
      if (!labels.add(app.name() + "\u0000" + app.version())) {
        throw new ConfigException(
            APPLICATION_VERSION.keyFor(id),
            "another application is already "
                + app.label()
                + "; give each version of "
                + app.name()
                + " its own application.ID with its own version");
      }
      result.add(app);
    }
    return result;
  }

  private static NamedApplication application(SettingValues values, String id) {
    String executable = values.get(APPLICATION_EXECUTABLE, id);
    if (executable == null) {
      throw new ConfigException(
          APPLICATION_EXECUTABLE.keyFor(id),
          "is required: the program application " + id + " runs");
    }
    NamedApplication.Kind kind =
        switch (values.get(APPLICATION_KIND, id).toLowerCase(Locale.ROOT)) {
          case "posix" -> NamedApplication.Kind.POSIX;
          case "mpirun" -> NamedApplication.Kind.MPIRUN;
          default ->
              throw new ConfigException(
                  APPLICATION_KIND.keyFor(id),
                  "must be mpirun or posix, not " + values.raw(APPLICATION_KIND, id));
        };
    int processes = values.get(APPLICATION_PROCESSES, id);
    if (kind == NamedApplication.Kind.POSIX && processes != 1) {
      throw new ConfigException(
          APPLICATION_PROCESSES.keyFor(id),
          "a posix application runs one process; set kind=mpirun for " + processes);
    }
    String name = values.find(APPLICATION_NAME, id).orElse(id);
    return new NamedApplication(
        id,
        name,
        values.find(APPLICATION_VERSION, id).orElse(""),
        kind,
        executable,
        values.get(APPLICATION_ARGUMENTS, id),
        processes,
        new TreeSet<>(values.get(APPLICATION_USERS, id)),
        values.find(APPLICATION_DESCRIPTION, id).orElse(""));
  }

  private static Map<String, Path> fileSystems(SettingValues values) {
    Map<String, Path> result = new TreeMap<>();
    for (String name :
        values.names(FILESYSTEM_PATH, FILESYSTEM_READ_ONLY, FILESYSTEM_STAGING_WRITES)) {
      Path dir =
          values
              .find(FILESYSTEM_PATH, name)
              .orElseThrow(
                  () ->
                      new ConfigException(
                          FILESYSTEM_PATH.keyFor(name),
                          "is required: the directory behind file system " + name));
      if (!Files.isDirectory(dir)) {
        throw new ConfigException(
            FILESYSTEM_PATH.keyFor(name),
            dir + " is not a directory; create it or correct the path");
      }
      result.put(name, dir);
    }
    return result;
  }

  /**
   * The read-only file systems staging may still write, because the operator said so for each
   * ({@code filesystem.NAME.staging-writes=true}).
   */
  private static Set<String> stagingWrites(SettingValues values, Set<String> names) {
    Set<String> result = new TreeSet<>();
    for (String name : names) {
      if (values.get(FILESYSTEM_STAGING_WRITES, name)) {
        result.add(name);
      }
    }
    return result;
  }

  /**
   * The file systems a job's sandbox shows read-only; staging does not write them either unless the
   * operator allows it ({@link #stagingWrites}).
   */
  private static Set<String> readOnly(SettingValues values, Set<String> names) {
    Set<String> result = new TreeSet<>();
    for (String name : names) {
      if (values.get(FILESYSTEM_READ_ONLY, name)) {
        result.add(name);
      }
    }
    return result;
  }
}
