package io.gantry.server.internal.jobstore.transfer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An H2 store written by {@code store migrate} holds password and token hashes: its directory, when
 * the copy makes it, is the owner's only (so the file H2 creates with the process umask is never
 * reachable by others), and the file is made owner-only once written, as the server keeps its own
 * (configuration.md, "Storage").
 */
final class PrivateH2File {
  private static final Pattern FILE_URL = Pattern.compile("jdbc:h2:(?:retry:)?file:([^;]+).*");

  private PrivateH2File() {}

  /** Makes the store file's missing directories, owner-only. */
  static void prepare(String jdbcUrl) {
    Optional<Path> file = file(jdbcUrl);
    if (file.isEmpty() || file.get().getParent() == null) {
      return;
    }
    Path parent = file.get().toAbsolutePath().getParent();
    if (Files.isDirectory(parent)) {
      return;
    }
    try {
      Files.createDirectories(
          parent,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the H2 store's directory " + parent, e);
    }
  }

  /** Makes the written store file owner-only. */
  static void tighten(String jdbcUrl) {
    Optional<Path> file = file(jdbcUrl).map(p -> Path.of(p + ".mv.db"));
    if (file.isEmpty() || !Files.exists(file.get())) {
      return;
    }
    try {
      Files.setPosixFilePermissions(file.get(), PosixFilePermissions.fromString("rw-------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + file.get() + " owner-only", e);
    }
  }

  private static Optional<Path> file(String jdbcUrl) {
    Matcher m = FILE_URL.matcher(jdbcUrl);
    return m.matches() ? Optional.of(Path.of(m.group(1))) : Optional.empty();
  }
}
