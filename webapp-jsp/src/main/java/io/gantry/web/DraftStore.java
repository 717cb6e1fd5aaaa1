package io.gantry.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Users' saved drafts: {@code <root>/<user>/<name>.jsdl}, one JSDL document each.
 *
 * <ol>
 *   <li>A draft name is 1 to 64 letters, digits, {@code . _ -}, starting with a letter or digit:
 *       nothing else is accepted, so a name never leaves its user's directory.
 *   <li>A user's directory name is the user name when it is as plain as that, otherwise its hex
 *       encoding (prefixed {@code ~}, which no plain name has); every resolved path is checked to
 *       lie under the root.
 *   <li>A draft holds at most {@link #MAX_BYTES}, a user at most {@link #MAX_DRAFTS} drafts.
 *   <li>Writes go to a temporary file first and are moved into place, so a draft is whole or
 *       absent.
 * </ol>
 */
final class DraftStore {
  static final int MAX_BYTES = 1024 * 1024;
  static final int MAX_DRAFTS = 100;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final String SUFFIX = ".jsdl";
  private final Path root;

  /** One draft as the list shows it. */
  public record Draft(String name, String modified, long bytes) {}

  DraftStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  static boolean validName(String name) {
    return name != null && NAME.matcher(name).matches() && !name.contains("..");
  }

  List<Draft> list(String user) throws IOException {
    Path dir = userDirectory(user);
    List<Draft> drafts = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return drafts;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        name = name.substring(0, name.length() - SUFFIX.length());
        if (validName(name) && Files.isRegularFile(file)) {
          BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
          drafts.add(
              new Draft(
                  name, JobRow.time(attributes.lastModifiedTime().toInstant()), attributes.size()));
        }
      }
    }
    drafts.sort(Comparator.comparing(Draft::name));
    return drafts;
  }

  Optional<String> load(String user, String name) throws IOException {
    Path file = file(user, name);
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw new IOException("draft " + name + " is larger than " + MAX_BYTES + " bytes");
      }
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Saves (or replaces) a draft; IllegalArgumentException says why a name or draft is refused. */
  void save(String user, String name, String document) throws IOException {
    Path file = file(user, name);
    byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException("a draft may hold at most " + MAX_BYTES / 1024 + " KiB");
    }
    if (!Files.exists(file) && list(user).size() >= MAX_DRAFTS) {
      throw new IllegalArgumentException(
          "you have " + MAX_DRAFTS + " drafts, the most kept; delete some first");
    }
    Files.createDirectories(file.getParent());
    Path temporary = Files.createTempFile(file.getParent(), ".saving-", ".tmp");
    try {
      Files.write(temporary, bytes);
      try {
        Files.move(
            temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  boolean delete(String user, String name) throws IOException {
    return Files.deleteIfExists(file(user, name));
  }

  private Path file(String user, String name) {
    if (!validName(name)) {
      throw new IllegalArgumentException(
          "a draft name is 1 to 64 letters, digits, '.', '_' or '-',"
              + " starting with a letter or digit");
    }
    return confined(userDirectory(user).resolve(name + SUFFIX));
  }

  private Path userDirectory(String user) {
    String dir =
        user != null && NAME.matcher(user).matches() && !user.contains("..")
            ? user
            : "~" + HexFormat.of().formatHex(String.valueOf(user).getBytes(StandardCharsets.UTF_8));
    return confined(root.resolve(dir));
  }

  private Path confined(Path path) {
    Path normal = path.toAbsolutePath().normalize();
    if (!normal.startsWith(root) || normal.equals(root)) {
      throw new IllegalArgumentException("not a draft path");
    }
    return normal;
  }
}
