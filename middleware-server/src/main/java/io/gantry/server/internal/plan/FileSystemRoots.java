package io.gantry.server.internal.plan;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The directories behind JSDL file system names ({@code filesystem.NAME.path}): a DataStaging
 * FileName with a FilesystemName lands under that directory instead of the job directory.
 *
 * <p>Confinement: a file name is relative, and after normalising it must still lie under its root;
 * {@code ..}, absolute names and the root itself are refused here, at validation. The staging
 * gateway checks again when it moves the file, refusing a symbolic link that leads out of the root
 * ({@link io.gantry.staging.NamedFileSystem}).
 *
 * <p>Inside a job's sandbox each file system the job names appears at {@code /fs/NAME} ({@link
 * io.gantry.dispatcher.FileSystemMount}), read-only when the operator says so.
 */
public final class FileSystemRoots {
  private final Map<String, Path> roots;
  private final Set<String> readOnly;
  private final Set<String> stagingWrites;

  public FileSystemRoots(Map<String, Path> roots) {
    this(roots, Set.of());
  }

  public FileSystemRoots(Map<String, Path> roots, Set<String> readOnly) {
    this(roots, readOnly, Set.of());
  }

  /**
   * @param readOnly the file systems jobs see read-only, which staging does not write either
   * @param stagingWrites the read-only ones staging may write all the same ({@code
   *     filesystem.NAME.staging-writes=true})
   */
  public FileSystemRoots(Map<String, Path> roots, Set<String> readOnly, Set<String> stagingWrites) {
    this.roots = new TreeMap<>(roots);
    this.readOnly = Set.copyOf(readOnly);
    this.stagingWrites = Set.copyOf(stagingWrites);
  }

  public static FileSystemRoots none() {
    return new FileSystemRoots(Map.of());
  }

  /** The configured names, sorted. */
  public Set<String> names() {
    return roots.keySet();
  }

  /** The directory of file system {@code name}, if the server configures it. */
  public Optional<Path> root(String name) {
    return Optional.ofNullable(roots.get(name));
  }

  /**
   * Where {@code fileName} of file system {@code fileSystem} lies on the server.
   *
   * @throws IllegalArgumentException naming the problem, for an unknown file system or a name that
   *     would leave its root
   */
  public Path resolve(String fileSystem, String fileName) {
    Path root =
        root(fileSystem).orElseThrow(() -> new IllegalArgumentException(unknown(fileSystem)));
    if (fileName == null || fileName.isBlank()) {
      throw new IllegalArgumentException(
          "a file name in file system " + fileSystem + " must not be empty");
    }
    Path relative = Path.of(fileName.strip());
    Path resolved = root.resolve(relative).normalize();
    if (relative.isAbsolute() || !resolved.startsWith(root) || resolved.equals(root)) {
      throw new IllegalArgumentException(
          fileName
              + " is outside file system "
              + fileSystem
              + "; give a path relative to it, without ..");
    }
    return resolved;
  }

  /** Whether jobs see file system {@code name} read-only ({@code filesystem.NAME.read-only}). */
  public boolean readOnly(String name) {
    return readOnly.contains(name);
  }

  /**
   * Whether staging may create, replace or delete files in file system {@code name}: a read-only
   * one only when the operator allows it explicitly ({@code filesystem.NAME.staging-writes=true}).
   */
  public boolean stagingWrites(String name) {
    return !readOnly.contains(name) || stagingWrites.contains(name);
  }

  /** Why a file system name is not usable here, or empty if it is configured. */
  public Optional<String> problem(String fileSystem) {
    return roots.containsKey(fileSystem) ? Optional.empty() : Optional.of(unknown(fileSystem));
  }

  private String unknown(String name) {
    return "file system "
        + name
        + " is not one this server provides; "
        + (roots.isEmpty()
            ? "it configures none (filesystem.NAME.path)"
            : "it provides " + String.join(", ", roots.keySet()));
  }
}
