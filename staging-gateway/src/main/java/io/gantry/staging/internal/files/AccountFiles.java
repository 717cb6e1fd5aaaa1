package io.gantry.staging.internal.files;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.FileAccount;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Files outside the job directory (a JSDL file system, a {@code file:} root) read and written as
 * the job's OS account: each operation is one coreutils program started by {@code setpriv} under
 * the account's uid, gid and groups, with no capability left and {@code no_new_privs}, from an
 * argument array with an empty environment. The kernel then applies owner, mode, sticky-bit and ACL
 * rules exactly as for the job's own program; this class adds only what the kernel would allow but
 * Gantry does not: an existing file of another account is never replaced or appended to (it would
 * be handed to the job's account, or changed under its owner), whatever the directory allows.
 *
 * <p>Names are confined by the caller ({@link JobDirectory#locate}); the final component is opened
 * with {@code O_NOFOLLOW}, and new bytes go to a temporary name created with {@code O_EXCL} beside
 * the target, which is then renamed (or hard-linked, for dontOverwrite) into place by the account.
 *
 * <p>Each helper starts in {@code base} (the file system's directory; for a {@code file:} URI the
 * directory the file is in), entered by the server before the account switch, and is given names
 * relative to it: as the job's program, which sees a file system bound at {@code /fs/NAME}, the
 * account needs rights inside the directory only, not on the directories above it.
 */
public final class AccountFiles {
  static final String SETPRIV = "/usr/bin/setpriv";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final long STEP_SECONDS = 120;

  private final FileAccount account;
  private final Path base;
  private final String where;

  /**
   * @param base the directory every file handled lies under, where each helper starts
   * @param where what the files are, for messages ("file system SCRATCH", "the file: root")
   */
  public AccountFiles(FileAccount account, Path base, String where) {
    this.account = account;
    this.base = base;
    this.where = where;
  }

  /** {@code file} relative to {@code base}, as the helper is given it. */
  private String rel(Path file) throws IOException {
    Path normal = file.normalize();
    if (!normal.startsWith(base) || normal.equals(base)) {
      throw new IOException(file + " is not inside " + where);
    }
    return base.relativize(normal).toString();
  }

  /** The argument array running {@code command} as the account. */
  List<String> as(String... command) {
    List<String> argv = new ArrayList<>();
    argv.add(SETPRIV);
    argv.add("--reuid=" + account.uid());
    argv.add("--regid=" + account.gid());
    if (account.groups().isEmpty()) {
      argv.add("--clear-groups");
    } else {
      argv.add(
          "--groups=" + String.join(",", account.groups().stream().map(String::valueOf).toList()));
    }
    argv.add("--inh-caps=-all");
    argv.add("--ambient-caps=-all");
    argv.add("--bounding-set=-all");
    argv.add("--no-new-privs");
    argv.add("--");
    argv.addAll(List.of(command));
    return argv;
  }

  private Process start(List<String> argv) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(base.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LC_ALL", "C");
    return pb.start();
  }

  /** Runs a command as the account that reads nothing from the server; fails with its words. */
  private void run(String what, String... command) throws IOException {
    Process p = start(as(command));
    p.getOutputStream().close();
    finish(p, what);
  }

  private void finish(Process p, String what) throws IOException {
    try {
      if (!p.waitFor(STEP_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(what + ": did not finish in " + STEP_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(what + ": interrupted", e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(what + " as OS account " + account.name() + ": " + reason(p));
    }
  }

  /** The program's last line of complaint, without its name ("dd: "). */
  private static String reason(Process p) throws IOException {
    String err = new String(p.getErrorStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
    String last = err.isEmpty() ? "failed" : err.lines().reduce((a, b) -> b).orElse(err);
    int colon = last.indexOf(": ");
    return colon > 0 && colon < 12 ? last.substring(colon + 2) : last;
  }

  /**
   * Copies a regular file, read as the account, to {@code out}; returns the bytes copied. A link at
   * the name is refused, never followed.
   */
  public long read(Path file, OutputStream out) throws IOException {
    if (Files.isSymbolicLink(file)) {
      throw new IOException(file + " in " + where + " is a symbolic link; not read");
    }
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(file.toString());
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(file + " in " + where + " is not a regular file; not read");
    }
    Process p =
        start(
            as(
                "/usr/bin/dd",
                "if=" + rel(file),
                "iflag=nofollow,nonblock",
                "bs=256K",
                "status=none"));
    p.getOutputStream().close();
    long n;
    try (InputStream in = p.getInputStream()) {
      n = in.transferTo(out);
    }
    finish(p, "cannot read " + file + " in " + where);
    return n;
  }

  /**
   * A private copy of a file read as the account, for a stage-out that reads it twice (checksum,
   * then upload): an unlinked temporary file of the server's, so nothing else can open it.
   */
  public SeekableByteChannel copyForReading(Path file) throws IOException {
    Path temp =
        Files.createTempFile(
            "gantry-staging-",
            ".part",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    FileChannel channel = FileChannel.open(temp, StandardOpenOption.READ, StandardOpenOption.WRITE);
    Files.delete(temp);
    try {
      read(file, java.nio.channels.Channels.newOutputStream(channel));
      channel.position(0);
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Whether the account may open the file for reading (the file: cache asks before a hit). */
  public boolean canRead(Path file) {
    try {
      run(
          "open",
          "/usr/bin/dd",
          "if=" + rel(file),
          "iflag=nofollow,nonblock",
          "count=0",
          "status=none");
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Creates the missing directories above {@code file} as the account. */
  public void createParents(Path file) throws IOException {
    Path parent = file.getParent();
    if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
      run("cannot create " + parent + " in " + where, "/usr/bin/mkdir", "-p", "--", rel(parent));
    }
  }

  /** Deletes a file as the account; false when there is none. */
  public boolean delete(Path file) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    requireOwnOrAbsent(file, "delete");
    run("cannot delete " + file + " in " + where, "/usr/bin/rm", "-f", "--", rel(file));
    return true;
  }

  /**
   * Refuses a file of another account: staging never replaces, appends to or deletes it, since the
   * result would belong to the job's account or change under its owner.
   */
  public void requireOwnOrAbsent(Path file, String action) throws IOException {
    int owner;
    try {
      owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    }
    if (owner != account.uid()) {
      throw new IOException(
          file.getFileName()
              + " in "
              + where
              + " belongs to another account (uid "
              + owner
              + "); staging as OS account "
              + account.name()
              + " does not "
              + action
              + " another account's file");
    }
  }

  /**
   * A new file for {@code target}, written as the account under a temporary name beside it and
   * published by {@link OutputFile#commit}; for append, the bytes are added to the account's own
   * existing file in place.
   */
  public OutputFile create(Path target, CreationFlag flag) throws IOException {
    boolean exists = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
    if (exists && flag == CreationFlag.DONT_OVERWRITE) {
      throw new IOException(
          target.getFileName() + " exists and the creation flag is dontOverwrite");
    }
    if (exists) {
      requireOwnOrAbsent(target, flag == CreationFlag.APPEND ? "append to" : "replace");
    }
    createParents(target);
    return new Writer(target, flag, exists);
  }

  /** The bytes of one staged file, streamed to a helper that writes them as the account. */
  private final class Writer implements OutputFile {
    private final Path target;
    private final Path temp;
    private final boolean append;
    private final String mode;
    private final MessageDigest digest;
    private final Process helper;
    private final OutputStream stream;
    private long bytes;
    private String checksum;
    private boolean committed;

    Writer(Path target, CreationFlag flag, boolean exists) throws IOException {
      this.target = target;
      this.append = exists && flag == CreationFlag.APPEND;
      this.temp =
          target.resolveSibling(".gantry-staging-" + HexFormat.of().formatHex(randomBytes()));
      try {
        this.digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      // a replaced file keeps its mode; a new one is its owner's only, as the job may widen it
      this.mode =
          exists
              ? Integer.toOctalString(
                  (Integer) Files.getAttribute(target, "unix:mode", LinkOption.NOFOLLOW_LINKS)
                      & 07777)
              : "600";
      if (append) {
        // the manifest's checksum covers the whole file, as for a file in the job directory
        read(target, new DigestCounter());
      }
      this.helper =
          start(
              append
                  ? as(
                      "/usr/bin/dd",
                      "of=" + rel(target),
                      "oflag=append,nofollow",
                      "conv=notrunc,fsync",
                      "bs=256K",
                      "status=none")
                  : as(
                      "/usr/bin/dd",
                      "of=" + rel(temp),
                      "oflag=nofollow",
                      "conv=excl,fsync",
                      "bs=256K",
                      "status=none"));
      OutputStream toHelper = helper.getOutputStream();
      this.stream =
          new OutputStream() {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              try {
                toHelper.write(b, off, len);
              } catch (IOException e) {
                throw refused(e);
              }
              digest.update(b, off, len);
              bytes += len;
            }

            @Override
            public void write(int b) throws IOException {
              write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void close() {
              // closing the stream does not commit; commit() closes the helper's input
            }
          };
    }

    /** A write the helper stopped taking: the helper's own reason (it could not open the file). */
    private IOException refused(IOException e) {
      try {
        if (helper.waitFor(5, TimeUnit.SECONDS) && helper.exitValue() != 0) {
          return new IOException(
              "cannot write "
                  + (append ? target : temp)
                  + " in "
                  + where
                  + " as OS account "
                  + account.name()
                  + ": "
                  + reason(helper),
              e);
        }
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      } catch (IOException unreadable) {
        e.addSuppressed(unreadable);
      }
      return e;
    }

    /** Counts and digests the existing bytes an append keeps. */
    private final class DigestCounter extends OutputStream {
      @Override
      public void write(byte[] b, int off, int len) {
        digest.update(b, off, len);
        bytes += len;
      }

      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }
    }

    @Override
    public OutputStream stream() {
      return stream;
    }

    @Override
    public long bytes() {
      return bytes;
    }

    @Override
    public String sha256() {
      if (checksum == null) {
        checksum = HexFormat.of().formatHex(digest.digest());
      }
      return checksum;
    }

    @Override
    public String commit(CreationFlag flag) throws IOException {
      try {
        helper.getOutputStream().close();
      } catch (IOException e) {
        throw refused(e);
      }
      finish(helper, "cannot write " + (append ? target : temp) + " in " + where);
      if (!append) {
        run("cannot set the mode of " + temp, "/usr/bin/chmod", mode, "--", rel(temp));
        if (flag == CreationFlag.DONT_OVERWRITE) {
          try {
            run(
                "cannot create " + target + " in " + where,
                "/usr/bin/ln",
                "-T",
                "--",
                rel(temp),
                rel(target));
          } catch (IOException e) {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
              throw new IOException(
                  target.getFileName() + " exists and the creation flag is dontOverwrite", e);
            }
            throw e;
          } finally {
            removeTemp();
          }
        } else {
          requireOwnOrAbsent(target, "replace"); // again: it may have appeared meanwhile
          run(
              "cannot replace " + target + " in " + where,
              "/usr/bin/mv",
              "-f",
              "-T",
              "--",
              rel(temp),
              rel(target));
        }
      }
      committed = true;
      return sha256();
    }

    private void removeTemp() throws IOException {
      if (Files.exists(temp, LinkOption.NOFOLLOW_LINKS)) {
        run("cannot remove " + temp, "/usr/bin/rm", "-f", "--", rel(temp));
      }
    }

    @Override
    public void close() throws IOException {
      if (committed) {
        return;
      }
      helper.destroyForcibly();
      if (!append) {
        removeTemp();
      }
    }
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[12];
    RANDOM.nextBytes(b);
    return b;
  }
}
