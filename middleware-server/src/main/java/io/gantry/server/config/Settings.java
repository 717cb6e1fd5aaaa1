package io.gantry.server.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every setting gantry-server knows: the {@code static final Setting} fields of the section classes
 * below, in the order they are declared. A setting is added by declaring it in its section (and
 * reading it there); nothing else lists keys. SettingsDocumentationTest checks that
 * configuration.md documents exactly these, with these defaults, and SettingsWiringTest that each
 * one changes the loaded {@link ServerConfig}.
 */
public final class Settings {
  private static final List<Class<?>> SECTIONS =
      List.of(
          ServerSection.class,
          SecuritySection.class,
          IdentitySection.class,
          AdmissionSection.class,
          ConnectionSection.class,
          StorageSection.class,
          SandboxSection.class,
          StagingSection.class,
          CredentialSection.class,
          ComputeSection.class,
          QueueSection.class,
          QuotaSection.class,
          JsdlResourceSettings.class,
          StageInSection.class,
          FarmSection.class,
          ScheduleSection.class,
          WorkerSessionSection.class,
          OperationsSection.class,
          LogSection.class,
          RiskSection.class,
          SshCaSection.class,
          NotifySection.class);

  private static final List<Setting<?>> ALL = collect();

  private Settings() {}

  /** Every setting, section by section. */
  public static List<Setting<?>> all() {
    return ALL;
  }

  /** The setting {@code key} is (for pattern settings: is one name of), if any. */
  public static Optional<Setting<?>> find(String key) {
    return ALL.stream().filter(s -> s.nameIn(key).isPresent()).findFirst();
  }

  /**
   * The known key nearest to a misspelt one ({@link NearestName}), for pattern settings with the
   * name the misspelt key carries.
   */
  public static Optional<String> nearest(String key) {
    return NearestName.among(key, ALL.stream().map(s -> candidate(s, key)).toList());
  }

  /**
   * {@code setting}'s key, for a pattern with the name {@code key} seems to use ("application.x.").
   */
  private static String candidate(Setting<?> setting, String key) {
    String prefix = setting.namePrefix();
    int last = key.lastIndexOf('.');
    if (setting.isPattern() && key.startsWith(prefix) && last > prefix.length()) {
      return setting.keyFor(key.substring(prefix.length(), last));
    }
    return setting.key();
  }

  private static List<Setting<?>> collect() {
    List<Setting<?>> all = new ArrayList<>();
    for (Class<?> section : SECTIONS) {
      for (Field field : section.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (field.getType() == Setting.class
            && Modifier.isStatic(modifiers)
            && Modifier.isFinal(modifiers)) {
          try {
            field.setAccessible(true);
            all.add((Setting<?>) field.get(null));
          } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read setting " + field, e);
          }
        }
      }
    }
    return List.copyOf(all);
  }
}
