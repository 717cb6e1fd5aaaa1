package io.gantry.jsdl.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules that keep a job's files where the job may write: inside its own job directory, or, for
 * an application's files only, under a root the server's administrator allows.
 */
final class JobDirectoryPaths {
  private static final Pattern PARENT_SEGMENT = Pattern.compile("(^|[/\\\\])\\.\\.([/\\\\]|$)");
  private static final Pattern WINDOWS_DRIVE = Pattern.compile("^[A-Za-z]:.*");

  private final List<Path> allowedRoots;

  JobDirectoryPaths(List<Path> allowedRoots) {
    this.allowedRoots = allowedRoots;
  }

  /** A staged file: relative to the job directory, never leaving it. */
  Optional<String> stagedFileProblem(String name) {
    if (isAbsolute(name)) {
      return Optional.of(
          "'"
              + name
              + "' is an absolute path; staged files live in the job"
              + " directory, so give a path relative to it (e.g. '"
              + lastSegment(name)
              + "')");
    }
    return commonProblem(name);
  }

  /** An application's file or directory: in the job directory, or under an allowed root. */
  Optional<String> applicationPathProblem(String name) {
    if (!isAbsolute(name)) {
      return commonProblem(name);
    }
    Optional<String> common = commonProblem(name);
    if (common.isPresent()) {
      return common;
    }
    try {
      Path path = Path.of(name).normalize();
      if (allowedRoots.stream().anyMatch(path::startsWith)) {
        return Optional.empty();
      }
    } catch (InvalidPathException e) {
      return Optional.of("'" + name + "' is not a valid path");
    }
    return Optional.of(
        "'"
            + name
            + "' is outside the job directory and "
            + (allowedRoots.isEmpty()
                ? "no other directory is allowed on this server"
                : "the allowed directories ("
                    + String.join(", ", allowedRoots.stream().map(Path::toString).toList())
                    + ")")
            + "; give a path relative to the job directory");
  }

  private static Optional<String> commonProblem(String name) {
    if (name.indexOf('\0') >= 0) {
      return Optional.of("the file name contains a NUL character");
    }
    if (PARENT_SEGMENT.matcher(name).find()) {
      return Optional.of(
          "'" + name + "' leaves the job directory ('..' is not allowed in file names)");
    }
    return Optional.empty();
  }

  private static boolean isAbsolute(String name) {
    return name.startsWith("/")
        || name.startsWith("\\")
        || name.startsWith("~")
        || WINDOWS_DRIVE.matcher(name).matches();
  }

  private static String lastSegment(String name) {
    String[] segments = name.split("[/\\\\]");
    return segments.length == 0 ? "data.csv" : segments[segments.length - 1];
  }

  /** The same file written two ways ("a/b.csv", "./a//b.csv") compares equal. */
  static String canonical(String relativeName) {
    try {
      return Path.of(relativeName).normalize().toString();
    } catch (InvalidPathException e) {
      return relativeName;
    }
  }
}
