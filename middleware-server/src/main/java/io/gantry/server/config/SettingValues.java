package io.gantry.server.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings of one configuration (the file and the command line's overrides), read only through
 * their {@link Setting} definitions: the type and default a value is read with are the
 * definition's, never repeated where the value is used.
 */
final class SettingValues {
  private final Properties values;

  SettingValues(Properties values) {
    this.values = values;
  }

  /** The value, else the default, else nothing (null; an empty list for a list). */
  <T> T get(Setting<T> setting) {
    return get(setting, "");
  }

  /** The value for one name of a pattern setting ({@code datasource.NAME.url} of {@code risk}). */
  <T> T get(Setting<T> setting, String name) {
    String key = setting.keyFor(name);
    String value = values.getProperty(key);
    if (value != null) {
      return setting.type().read(key, withoutNul(key, value));
    }
    return setting
        .defaultValue()
        .map(v -> setting.type().read(key, v))
        .orElse(setting.type().absent());
  }

  /** The value if it is set; for settings whose default is computed from others. */
  <T> Optional<T> find(Setting<T> setting) {
    String value = values.getProperty(setting.key());
    return Optional.ofNullable(value)
        .map(v -> setting.type().read(setting.key(), withoutNul(setting.key(), v)));
  }

  /** The value for one name if it is set. */
  <T> Optional<T> find(Setting<T> setting, String name) {
    String key = setting.keyFor(name);
    return Optional.ofNullable(values.getProperty(key))
        .map(v -> setting.type().read(key, withoutNul(key, v)));
  }

  /**
   * No setting can hold a NUL character (no path, host, name or command line can): refused here,
   * naming the setting, before a type's reader meets it (found by SettingsLoaderFuzzTest: a path
   * with one escaped the loader as InvalidPathException).
   */
  private static String withoutNul(String key, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new ConfigException(key, "contains a NUL character, which no setting can hold");
    }
    return value;
  }

  /** Whether the setting is given at all. */
  boolean isSet(Setting<?> setting) {
    return values.getProperty(setting.key()) != null;
  }

  /** The raw text of a setting, as given; for messages and rules on the text itself. */
  String raw(Setting<?> setting, String name) {
    return values.getProperty(setting.keyFor(name));
  }

  /** The names configured with any of these pattern settings, in order. */
  Set<String> names(Setting<?>... settings) {
    Set<String> names = new TreeSet<>();
    for (String key : values.stringPropertyNames()) {
      for (Setting<?> s : settings) {
        s.nameIn(key).ifPresent(names::add);
      }
    }
    return names;
  }

  /**
   * Where a secret is read from: the file of {@code file} or the environment variable of {@code
   * env} (for one name of pattern settings), never both; None when neither is set.
   */
  PasswordSource password(Setting<String> file, Setting<String> env, String name) {
    String path = get(file, name);
    String variable = get(env, name);
    if (path != null && variable != null) {
      throw new ConfigException(
          file.keyFor(name), "set either password-file or password-env, not both");
    }
    if (path != null) {
      return new PasswordSource.FromFile(Path.of(path));
    }
    return variable != null
        ? new PasswordSource.FromEnvironment(variable)
        : new PasswordSource.None();
  }

  PasswordSource password(Setting<String> file, Setting<String> env) {
    return password(file, env, "");
  }
}
