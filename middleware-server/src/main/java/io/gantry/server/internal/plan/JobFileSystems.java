package io.gantry.server.internal.plan;

import io.gantry.dispatcher.FileSystemMount;
import io.gantry.dispatcher.LaunchSpec;
import io.gantry.jsdl.JsdlJob;
import io.gantry.jsdl.ReservedEnvironment;
import io.gantry.jsdl.model.core.FileSystemType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How a job's program finds the JSDL file systems it names (Resources/FileSystem and
 * DataStaging/FilesystemName):
 *
 * <ol>
 *   <li>In the sandbox of the local backend, each appears at {@code /fs/NAME}, read-write or
 *       read-only as the operator configured it; on the other backends the program runs outside
 *       this host's sandbox and sees the configured directory itself (shared with the nodes).
 *   <li>The environment variable {@code NAME} holds that path, as JSDL documents written for other
 *       systems expect ({@code $SCRATCH}), when {@code NAME} is a portable variable name the server
 *       does not set itself (HOME stays the job directory); {@code GANTRY_FS_NAME} holds it always
 *       ({@code .} and {@code -} in the name become {@code _}).
 *   <li>A {@code MountPoint} the job gives must be that path: the sandbox shows file systems in one
 *       place only, so a different one is refused rather than silently moved.
 * </ol>
 */
final class JobFileSystems {
  private static final Pattern PORTABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Set by the sandbox for every job; a file system of that name does not replace them. */
  private static final Set<String> SANDBOX_VARIABLES =
      Set.of("USER", "LOGNAME", "PATH", "HOME", "TMPDIR");

  private final FileSystemRoots roots;
  private final boolean sandboxed;

  JobFileSystems(FileSystemRoots roots, boolean sandboxed) {
    this.roots = roots;
    this.sandboxed = sandboxed;
  }

  /** {@code spec} showing the file systems {@code names} (the configured ones among them). */
  LaunchSpec mounted(LaunchSpec spec, Set<String> names, JsdlJob job, List<String> problems) {
    List<FileSystemMount> mounts = new ArrayList<>();
    Map<String, String> variables = new TreeMap<>();
    for (String name : names) {
      Path root = roots.root(name).orElse(null);
      if (root == null) {
        continue; // reported as unknown by the planner
      }
      FileSystemMount mount = new FileSystemMount(name, root, roots.readOnly(name));
      String seen = pathSeen(mount);
      mountPointProblem(job, name, seen).ifPresent(problems::add);
      if (sandboxed) {
        mounts.add(mount);
      }
      variables.put("GANTRY_FS_" + name.replaceAll("[^A-Za-z0-9_]", "_"), seen);
      if (PORTABLE.matcher(name).matches()
          && !SANDBOX_VARIABLES.contains(name)
          && ReservedEnvironment.problem(name).isEmpty()) {
        variables.put(name, seen);
      }
    }
    return mounts.isEmpty() && variables.isEmpty() ? spec : spec.withFileSystems(mounts, variables);
  }

  /** Where the program finds file system {@code mount}. */
  String pathSeen(FileSystemMount mount) {
    return sandboxed ? mount.mountPoint().toString() : mount.directory().toString();
  }

  private static java.util.Optional<String> mountPointProblem(
      JsdlJob job, String name, String seen) {
    if (job.description().getResources() == null) {
      return java.util.Optional.empty();
    }
    for (FileSystemType fs : job.description().getResources().getFileSystem()) {
      String wanted = fs.getMountPoint() == null ? null : fs.getMountPoint().strip();
      if (name.equals(fs.getName().strip())
          && wanted != null
          && !wanted.isEmpty()
          && !Path.of(wanted).normalize().equals(Path.of(seen))) {
        return java.util.Optional.of(
            "Resources/FileSystem "
                + name
                + ": MountPoint "
                + wanted
                + " cannot be provided; this server shows file system "
                + name
                + " at "
                + seen
                + " (also in $GANTRY_FS_"
                + name.replaceAll("[^A-Za-z0-9_]", "_")
                + "); leave MountPoint out or give "
                + seen);
      }
    }
    return java.util.Optional.empty();
  }
}
