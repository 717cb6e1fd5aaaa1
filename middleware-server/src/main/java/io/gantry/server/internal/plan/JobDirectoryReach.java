package io.gantry.server.internal.plan;

import io.gantry.dispatcher.JobAccount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Whether a job's account can reach its job directory and run its executable, asked before the job
 * is queued: on the {@code slurm} and {@code mpirun-hosts} backends the program starts on a node
 * under that account, and a parent directory the account may not traverse is otherwise found only
 * there ("couldn't chdir ... Permission denied", exit code 2).
 *
 * <p>The POSIX rule for each directory from {@code /} down (Single UNIX Specification, "File Access
 * Permissions"): the owner's bits apply to the owning uid, else the group's to a member of the
 * owning group, else the others' bits. The job directories' root lies on the file system the nodes
 * share with this host, so the modes read here are the modes the nodes see.
 */
public final class JobDirectoryReach {
  private JobDirectoryReach() {}

  /**
   * Why {@code account} cannot reach a job directory under {@code jobsRoot} or run {@code
   * executable} (an absolute path; a bare name is looked up on the node's PATH and not checked
   * here, nor is an executable that does not exist on this host), or empty when it can.
   */
  public static Optional<String> problem(Path jobsRoot, JobAccount account, String executable) {
    Optional<String> root = traversal(jobsRoot.toAbsolutePath(), account, "the job directories");
    if (root.isPresent() || executable == null || !executable.startsWith("/")) {
      return root;
    }
    Path program = Path.of(executable);
    if (!Files.exists(program)) {
      return Optional.empty();
    }
    Optional<String> path = traversal(program.getParent(), account, "the executable " + executable);
    if (path.isPresent()) {
      return path;
    }
    try {
      if (!mayExecute(program, account)) {
        return Optional.of(
            "the executable " + executable + " may not be run by OS account " + account.name());
      }
    } catch (IOException e) {
      return Optional.of("cannot read the mode of the executable " + executable + ": " + e);
    }
    return Optional.empty();
  }

  private static Optional<String> traversal(Path dir, JobAccount account, String what) {
    Path walked = dir.getRoot();
    for (Path part : dir) {
      walked = walked.resolve(part);
      try {
        if (!mayExecute(walked, account)) {
          return Optional.of(
              what
                  + " cannot be reached by OS account "
                  + account.name()
                  + ": it may not enter "
                  + walked
                  + " (mode "
                  + PosixFilePermissions.toString(Files.getPosixFilePermissions(walked))
                  + "); give it search permission there (chmod o+x, or a group it is in)");
        }
      } catch (java.nio.file.NoSuchFileException e) {
        return Optional.empty(); // made at start, traversable (mode 0711), with what it lacks
      } catch (IOException e) {
        return Optional.of(what + ": cannot read the mode of " + walked + ": " + e);
      }
    }
    return Optional.empty();
  }

  /** The POSIX decision whether {@code account} may search (directory) or execute (file) it. */
  private static boolean mayExecute(Path path, JobAccount account) throws IOException {
    java.util.Map<String, Object> a = Files.readAttributes(path, "unix:uid,gid,mode");
    int mode = (Integer) a.get("mode");
    if ((Integer) a.get("uid") == account.uid()) {
      return (mode & 0100) != 0;
    }
    int group = (Integer) a.get("gid");
    if (group == account.gid() || account.groups().contains(group)) {
      return (mode & 010) != 0;
    }
    return (mode & 01) != 0;
  }
}
