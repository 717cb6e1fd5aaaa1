package io.gantry.server.internal.datadirectory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The server's data directory kept to the server's own account. Jobs run under other OS accounts,
 * so everything the server keeps there (the job store with every job definition and password hash,
 * the key that decrypts every {@code ENC(...)} value, the TLS keystore and its password, SSH keys)
 * must be unreadable to them.
 *
 * <ol>
 *   <li>{@link #prepare} creates what is missing with owner-only modes: the data directory and the
 *       job directories' root {@code 0711} (traversable, not listable, so each job's account
 *       reaches its own {@code 0700} job directory by name), the private directories {@code 0700}.
 *   <li>{@link #check} refuses, naming the path and its mode, a directory or a secret file that its
 *       group or others may read or write, or that another account owns: such a data directory has
 *       been exposed, and starting would go on using keys others may have read.
 *   <li>{@link #tighten} makes the files the server's libraries create with the process umask (H2
 *       databases: {@code 0644}) owner-only; they were private through their {@code 0700} directory
 *       all along, which {@link #check} verified first.
 * </ol>
 */
public final class PrivateDataDirectory {
  /** Directories whose files hold keys: every file in them must be owner-only too. */
  static final List<String> SECRET_DIRECTORIES = List.of("keys", "tls", "ssh");

  /** Directories of databases and drafts the server's libraries write with the umask. */
  static final List<String> OWNER_ONLY_DIRECTORIES = List.of("demo", "web");

  private static final Set<PosixFilePermission> TRAVERSABLE =
      PosixFilePermissions.fromString("rwx--x--x");
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> GROUP_OTHER_READ_WRITE =
      EnumSet.of(
          PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
  private static final Set<PosixFilePermission> GROUP_OTHER_ANY =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private final Path dataDirectory;
  private final Path jobsRoot;
  private final List<Path> privateDirectories = new ArrayList<>();
  private final List<Path> secretDirectories = new ArrayList<>();
  private final long uid;

  /**
   * @param jobStoreDirectory the H2 job store's directory, or null for a PostgreSQL store
   */
  public PrivateDataDirectory(Path dataDirectory, Path jobsRoot, Path jobStoreDirectory) {
    this.dataDirectory = dataDirectory;
    this.jobsRoot = jobsRoot;
    if (jobStoreDirectory != null) {
      privateDirectories.add(jobStoreDirectory);
    }
    OWNER_ONLY_DIRECTORIES.forEach(name -> privateDirectories.add(dataDirectory.resolve(name)));
    SECRET_DIRECTORIES.forEach(name -> secretDirectories.add(dataDirectory.resolve(name)));
    this.uid = new com.sun.security.auth.module.UnixSystem().getUid();
  }

  /** A data directory exposed to other accounts: the server does not start on it. */
  public static final class ExposedException extends IOException {
    private static final long serialVersionUID = 1L;

    ExposedException(String message) {
      super(message);
    }
  }

  /** Creates whatever is missing, owner-only. */
  public void prepare() throws IOException {
    create(dataDirectory, TRAVERSABLE);
    create(jobsRoot, TRAVERSABLE);
    for (Path dir : privateDirectories) {
      create(dir, OWNER_ONLY);
    }
    for (Path dir : secretDirectories) {
      create(dir, OWNER_ONLY);
    }
  }

  /** Refuses a data directory that others may read or write, naming the first path at fault. */
  public void check() throws IOException {
    checkMode(dataDirectory, GROUP_OTHER_READ_WRITE, "traversable by others at most (chmod 711)");
    checkMode(jobsRoot, GROUP_OTHER_READ_WRITE, "traversable by others at most (chmod 711)");
    for (Path dir : privateDirectories) {
      checkMode(dir, GROUP_OTHER_ANY, "owner-only (chmod 700)");
      checkOwnerOfContents(dir);
    }
    for (Path dir : secretDirectories) {
      checkMode(dir, GROUP_OTHER_ANY, "owner-only (chmod 700)");
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path file : files.filter(f -> !f.equals(dir)).toList()) {
          checkMode(file, GROUP_OTHER_ANY, "owner-only (chmod 600)");
        }
      }
    }
  }

  /** Makes every file in the private and secret directories owner-only. */
  public void tighten() throws IOException {
    List<Path> all = new ArrayList<>(privateDirectories);
    all.addAll(secretDirectories);
    for (Path dir : all) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path file : files.toList()) {
          PosixFileAttributes a =
              Files.readAttributes(
                  file, PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
          if (a.isSymbolicLink()) {
            continue;
          }
          Set<PosixFilePermission> mode = EnumSet.noneOf(PosixFilePermission.class);
          mode.addAll(a.permissions());
          if (mode.removeAll(GROUP_OTHER_ANY)) {
            Files.setPosixFilePermissions(file, mode);
          }
        }
      }
    }
  }

  private void create(Path dir, Set<PosixFilePermission> mode) throws IOException {
    if (Files.notExists(dir)) {
      OwnerOnlyFiles.createDirectories(dir, mode); // born with its mode: no wider moment
    }
  }

  private void checkMode(Path path, Set<PosixFilePermission> forbidden, String wanted)
      throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class);
    checkOwner(path);
    Set<PosixFilePermission> exposed = EnumSet.noneOf(PosixFilePermission.class);
    exposed.addAll(a.permissions());
    exposed.retainAll(forbidden);
    if (!exposed.isEmpty()) {
      throw new ExposedException(
          path
              + " has mode "
              + PosixFilePermissions.toString(a.permissions())
              + ", which lets other accounts at the server's data; it must be "
              + wanted
              + ". The server does not start until it is; if others may have read keys meanwhile, replace them.");
    }
  }

  private void checkOwnerOfContents(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.toList()) {
        checkOwner(file);
      }
    }
  }

  private void checkOwner(Path path) throws IOException {
    Object owner = Files.getAttribute(path, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS);
    if (owner instanceof Integer id && id != uid) {
      throw new ExposedException(
          path
              + " is owned by uid "
              + id
              + ", not by the server's account (uid "
              + uid
              + "); the server does not start on files another account controls.");
    }
  }
}
