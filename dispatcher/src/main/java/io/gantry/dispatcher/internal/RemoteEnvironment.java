package io.gantry.dispatcher.internal;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The environment of a job whose programs run on other hosts (Slurm, mpirun over ssh): built from
 * scratch, so the server's own variables (credentials among them) never travel with the job. The
 * inherited names first, then Open MPI's run-as-root consent when the job runs as root (Open MPI
 * refuses root otherwise), then the job's own variables, which were checked against the reserved
 * names already ({@link io.gantry.dispatcher.MpirunCommand}).
 */
public final class RemoteEnvironment {
  private RemoteEnvironment() {}

  public static Map<String, String> build(
      List<String> inheritedNames,
      Map<String, String> server,
      boolean runsAsRoot,
      Map<String, String> job) {
    Map<String, String> env = new TreeMap<>();
    for (String name : inheritedNames) {
      String value = server.get(name);
      if (value != null) {
        env.put(name, value);
      }
    }
    if (runsAsRoot) {
      env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
      env.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    env.putAll(job);
    return env;
  }

  /** True when this JVM runs as root. */
  public static boolean serverIsRoot() {
    return "root".equals(System.getProperty("user.name"));
  }
}
