package io.gantry.server.config;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One setting of the configuration file, defined in one place (as HikariConfig owns each of its
 * properties): its key, how a value is read and checked, its default, and what it means in one
 * line. {@link Settings} lists them all; the loader accepts no other key, {@code gantry-server
 * settings} prints them, and tests check configuration.md and the server's wiring against them.
 *
 * <p>A key with an upper-case segment ({@code datasource.NAME.url}) is a pattern: one setting for
 * every configured name, read with {@link SettingValues#get(Setting, String)}.
 *
 * @param <T> the type a value is read as
 */
public final class Setting<T> {
  private static final String DEFAULT_NAME = "[A-Za-z0-9][A-Za-z0-9_.-]*";

  private final String key;
  private final SettingType<T> type;
  private final String defaultValue;
  private final String shownDefault;
  private final String meaning;
  private final String nameSyntax;

  private Setting(
      String key,
      SettingType<T> type,
      String defaultValue,
      String shownDefault,
      String meaning,
      String nameSyntax) {
    this.key = key;
    this.type = type;
    this.defaultValue = defaultValue;
    this.shownDefault = shownDefault;
    this.meaning = meaning;
    this.nameSyntax = nameSyntax;
  }

  /** A setting without a default (none), read as {@code type}. */
  public static <T> Setting<T> of(String key, SettingType<T> type) {
    return new Setting<>(key, type, null, "none", "", DEFAULT_NAME);
  }

  /** Its default, as it would be written in the file; shown as {@code `value`}. */
  public Setting<T> byDefault(String value) {
    return new Setting<>(key, type, value, "`" + value + "`", meaning, nameSyntax);
  }

  /**
   * How the documentation shows the default, where it is not one fixed value (computed from other
   * settings or the machine, or none with a reason): the loader computes it.
   */
  public Setting<T> shownDefault(String text) {
    return new Setting<>(key, type, defaultValue, text, meaning, nameSyntax);
  }

  /** What the setting means, in one line. */
  public Setting<T> means(String text) {
    return new Setting<>(key, type, defaultValue, shownDefault, text, nameSyntax);
  }

  /** For a pattern key: the syntax of the names it accepts (a regular expression). */
  public Setting<T> namedBy(String regex) {
    return new Setting<>(key, type, defaultValue, shownDefault, meaning, regex);
  }

  public String key() {
    return key;
  }

  public SettingType<T> type() {
    return type;
  }

  /** The default as written in a file, if it is one fixed value. */
  public Optional<String> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  /** The default as configuration.md's tables show it. */
  public String shownDefault() {
    return shownDefault;
  }

  public String meaning() {
    return meaning;
  }

  /** Whether the key names things ({@code datasource.NAME.url}). */
  public boolean isPattern() {
    return placeholder().isPresent();
  }

  /**
   * The key for one name: {@code datasource.NAME.url} for {@code risk} is {@code
   * datasource.risk.url}.
   */
  public String keyFor(String name) {
    return placeholder().map(p -> key.replace(p, name)).orElse(key);
  }

  /**
   * The name in {@code key}, if {@code key} is this setting for some name; "" for a plain setting's
   * own key.
   */
  Optional<String> nameIn(String candidate) {
    Optional<String> placeholder = placeholder();
    if (placeholder.isEmpty()) {
      return key.equals(candidate) ? Optional.of("") : Optional.empty();
    }
    int at = key.indexOf(placeholder.get());
    Matcher m =
        Pattern.compile(
                Pattern.quote(key.substring(0, at))
                    + "("
                    + nameSyntax
                    + ")"
                    + Pattern.quote(key.substring(at + placeholder.get().length())))
            .matcher(candidate);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** What comes before the name in a pattern key ({@code slurm.user.}); the whole key otherwise. */
  String namePrefix() {
    return placeholder().map(p -> key.substring(0, key.indexOf(p))).orElse(key);
  }

  private Optional<String> placeholder() {
    for (String segment : key.split("\\.")) {
      if (!segment.isEmpty()
          && segment.equals(segment.toUpperCase(java.util.Locale.ROOT))
          && Character.isLetter(segment.charAt(0))) {
        return Optional.of(segment);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return key;
  }
}
