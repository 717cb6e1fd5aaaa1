package io.gantry.dispatcher.internal;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds a launched program's environment from scratch. Starting empty, rather than from the
 * server's environment, keeps the server's own credentials (database passwords, key passphrases
 * given through the environment) away from user programs.
 */
public final class ChildEnvironment {
  private ChildEnvironment() {}

  /** Inherited names first, then {@code runtime}, then {@code job}: later layers win. */
  public static Map<String, String> build(List<String> inheritedNames, Map<String, String> server,
      Map<String, String> runtime, Map<String, String> job) {
    Map<String, String> env = new TreeMap<>();
    for (String name : inheritedNames) {
      String value = server.get(name);
      if (value != null) {
        env.put(name, value);
      }
    }
    env.putAll(runtime);
    env.putAll(job);
    return env;
  }
}
