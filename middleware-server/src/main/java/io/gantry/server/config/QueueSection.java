package io.gantry.server.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Priority classes: queue.classes, queue.default, queue.CLASS.users (docs/operations.md). */
final class QueueSection {
  private QueueSection() {}

  /** A class name, as gx:Queue's schema type allows it. */
  private static final String CLASS_NAME = "[a-z][a-z0-9-]{0,31}";

  static final Setting<List<String>> CLASSES =
      Setting.of("queue.classes", SettingType.words())
          .byDefault("normal")
          .means(
              "the priority classes jobs wait in, highest first (a-z, 0-9, -); a job of a higher"
                  + " class starts before every job of a lower one, none is preempted");
  static final Setting<String> DEFAULT =
      Setting.of("queue.default", SettingType.word(CLASS_NAME, "a class name"))
          .shownDefault("`normal` if `queue.classes` has it, else its last class")
          .means("the class of a job that names none (`gx:Queue`, `gantry submit --queue`)");
  static final Setting<List<String>> USERS =
      Setting.of("queue.CLASS.users", SettingType.words())
          .namedBy(CLASS_NAME)
          .shownDefault("everyone")
          .means(
              "the users who may submit to class CLASS (administrators may use every class);"
                  + " empty: administrators only");

  static ServerConfig.Queues read(SettingValues values) {
    List<String> classes = values.get(CLASSES);
    if (classes.isEmpty()) {
      throw new ConfigException(CLASSES.key(), "names no class; leave it out for one, normal");
    }
    for (String name : classes) {
      if (!name.matches(CLASS_NAME)) {
        throw new ConfigException(
            CLASSES.key(), "'" + name + "' is no class name (a-z first, then a-z, 0-9, -)");
      }
      if (classes.indexOf(name) != classes.lastIndexOf(name)) {
        throw new ConfigException(CLASSES.key(), "names class '" + name + "' twice");
      }
    }
    String fallback = classes.contains("normal") ? "normal" : classes.get(classes.size() - 1);
    String defaultClass = values.find(DEFAULT).orElse(fallback);
    if (!classes.contains(defaultClass)) {
      throw new ConfigException(
          DEFAULT.key(),
          "'" + defaultClass + "' is not among queue.classes (" + String.join(", ", classes) + ")");
    }
    Map<String, List<String>> users = new LinkedHashMap<>();
    for (String name : values.names(USERS)) {
      if (!classes.contains(name)) {
        throw new ConfigException(
            USERS.keyFor(name),
            "class '" + name + "' is not among queue.classes (" + String.join(", ", classes) + ")");
      }
      users.put(name, List.copyOf(values.find(USERS, name).orElse(List.of())));
    }
    return new ServerConfig.Queues(classes, defaultClass, users);
  }
}
