package io.gantry.server.internal.scheduler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The priority classes jobs wait in (settings {@code queue.*}, docs/operations.md "Priority
 * classes"): their order, highest first, the class of a job that names none, and who may use each.
 *
 * @param order the classes, highest priority first
 * @param defaultClass the class of a job that names none; one of {@code order}
 * @param users for a class with a {@code queue.CLASS.users} setting, the users who may use it
 *     (administrators may use every class); a class absent here is open to everyone
 */
public record QueueClasses(
    List<String> order, String defaultClass, Map<String, Set<String>> users) {

  public QueueClasses {
    order = List.copyOf(order);
    users = Map.copyOf(users);
    if (!order.contains(defaultClass)) {
      throw new IllegalArgumentException(
          "default class " + defaultClass + " is not among " + String.join(", ", order));
    }
  }

  /** One class, {@code normal}, open to everyone: strict first come first served per user. */
  public static QueueClasses single() {
    return new QueueClasses(List.of("normal"), "normal", Map.of());
  }

  /**
   * The rank of the class a job asked for (0 the highest); the default class's for a job that named
   * none, or one no longer configured (a job recovered after its class was removed from the
   * configuration keeps its place among the default class's jobs rather than fail).
   */
  public int rank(Optional<String> requested) {
    int rank = requested.map(order::indexOf).orElse(-1);
    return rank >= 0 ? rank : order.indexOf(defaultClass);
  }

  /**
   * Why {@code user} may not submit a job asking for {@code requested}, naming the class and the
   * setting; empty when the class exists and the user may use it.
   */
  public Optional<String> refusal(Optional<String> requested, String user, boolean admin) {
    if (requested.isEmpty()) {
      return Optional.empty();
    }
    String name = requested.get();
    if (!order.contains(name)) {
      return Optional.of(
          "there is no priority class '"
              + name
              + "' on this server; its classes are "
              + String.join(", ", order)
              + " (queue.classes)");
    }
    Set<String> allowed = users.get(name);
    if (admin || allowed == null || allowed.contains(user)) {
      return Optional.empty();
    }
    return Optional.of(
        "user " + user + " may not use priority class '" + name + "' (queue." + name + ".users)");
  }
}
