package io.gantry.staging.internal.cache;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.internal.files.Checksums;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stage-in cache on disk: one read-only data file per key ({@code <key>}) and its description
 * ({@code <key>.meta}: checksum, size, rows, creation time, source), in one directory only the
 * server can enter (0700).
 *
 * <ul>
 *   <li>Data files are mode 0444 and stay the server's: a job reads a hit through a hard link in
 *       its directory but can neither write nor chmod the shared inode (the server does not hand
 *       files with other links to the job's account).
 *   <li>A data file with more than one link is linked into some job directory, that is, in use by a
 *       job: eviction never removes it. Removing a job directory releases the entry.
 *   <li>Least recently used entries go first when the total size passes {@code maxBytes}; the
 *       description's modification time is the last use.
 *   <li>One extraction per key at a time: {@link #lock} serialises the lookups and the extraction
 *       of one key (striped locks, so the lock table stays bounded); one server per cache
 *       directory.
 * </ul>
 */
public final class CacheStore {
  private static final Logger log = LoggerFactory.getLogger(CacheStore.class);
  private static final String META = ".meta";

  private final Path dir;
  private final long maxBytes;
  private final ReentrantLock[] stripes = new ReentrantLock[256];

  /** One cached extract as its description tells. */
  public record Entry(
      String key,
      Path data,
      String sha256,
      long bytes,
      long rows,
      Instant created,
      Instant lastUsed,
      String source,
      String detail,
      boolean inUse) {}

  public CacheStore(Path dir, long maxBytes) throws IOException {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("cache.max-bytes must not be negative, not " + maxBytes);
    }
    this.dir = dir;
    this.maxBytes = maxBytes;
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new ReentrantLock();
    }
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  public Path directory() {
    return dir;
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** Holds the lock of {@code key} until closed; waits interruptibly. */
  public Held lock(String key) throws InterruptedException {
    ReentrantLock lock = stripe(key);
    lock.lockInterruptibly();
    return lock::unlock;
  }

  /** A held key lock. */
  public interface Held extends AutoCloseable {
    @Override
    void close();
  }

  private ReentrantLock stripe(String key) {
    return stripes[Math.floorMod(key.hashCode(), stripes.length)];
  }

  /**
   * The entry of {@code key} if it exists, is younger than {@code validity} (null: any age) and its
   * bytes still have its checksum. A damaged entry is removed (and logged), so the caller extracts
   * again.
   */
  public Optional<Entry> usable(String key, Duration validity, Instant now) throws IOException {
    Optional<Entry> found = read(key);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Entry e = found.get();
    if (validity != null && !e.created().plus(validity).isAfter(now)) {
      return Optional.empty();
    }
    String actual;
    try {
      actual = Files.size(e.data()) == e.bytes() ? Checksums.sha256(e.data()) : "size differs";
    } catch (NoSuchFileException gone) {
      return Optional.empty();
    }
    if (!actual.equals(e.sha256())) {
      log.warn(
          "stage-in cache entry {} is damaged (expected sha256 {}, found {}); dropped",
          key,
          e.sha256(),
          actual);
      drop(key);
      return Optional.empty();
    }
    // read-only for everyone, again: a recursive chmod of the staging root by an operator would
    // otherwise keep the job's account from reading the file through its link
    Files.setPosixFilePermissions(e.data(), PosixFilePermissions.fromString("r--r--r--"));
    Files.setLastModifiedTime(meta(key), FileTime.from(now));
    return Optional.of(e);
  }

  /**
   * Adds {@code file} (just written, with {@code sha256}) as the entry of {@code key}: a hard link
   * where the file system allows, a copy otherwise; then evicts down to the size limit.
   */
  public void publish(
      String key,
      Path file,
      String sha256,
      long bytes,
      long rows,
      String source,
      String detail,
      Instant now)
      throws IOException {
    Path temp =
        dir.resolve(
            "." + key + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".part");
    try {
      try {
        Files.createLink(temp, file);
      } catch (FileSystemException | UnsupportedOperationException crossDevice) {
        Files.copy(file, temp);
      }
      Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("r--r--r--"));
      Properties p = new Properties();
      p.setProperty("sha256", sha256);
      p.setProperty("bytes", Long.toString(bytes));
      p.setProperty("rows", Long.toString(rows));
      p.setProperty("created", now.toString());
      p.setProperty("source", source);
      p.setProperty("detail", detail);
      Path metaTemp = dir.resolve(temp.getFileName() + META);
      try (OutputStream out = Files.newOutputStream(metaTemp)) {
        p.store(out, null);
      }
      Files.move(
          metaTemp, meta(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          temp,
          dir.resolve(key),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
      Files.deleteIfExists(dir.resolve(temp.getFileName() + META));
    }
    evict();
  }

  /**
   * Puts a cached file under {@code output}: a hard link (no bytes copied) where the job directory
   * and the cache share a file system, a copy otherwise; through a temporary name, so the output
   * appears complete or not at all, and {@code dontOverwrite} never replaces a file.
   */
  public static void linkInto(Path cached, Path output, CreationFlag flag) throws IOException {
    Path temp =
        output.resolveSibling(
            "."
                + output.getFileName()
                + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".part");
    try {
      try {
        Files.createLink(temp, cached);
      } catch (FileSystemException | UnsupportedOperationException crossDevice) {
        Files.copy(cached, temp);
      }
      if (flag == CreationFlag.DONT_OVERWRITE) {
        try {
          Files.createLink(output, temp);
        } catch (FileAlreadyExistsException e) {
          throw new IOException(
              output.getFileName() + " exists and the creation flag is dontOverwrite");
        }
      } else {
        Files.move(
            temp, output, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Every entry, most recently used first. */
  public List<Entry> list() throws IOException {
    List<Entry> entries = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + META)) {
      for (Path m : files) {
        String name = m.getFileName().toString();
        if (!name.startsWith(".")) {
          read(name.substring(0, name.length() - META.length())).ifPresent(entries::add);
        }
      }
    }
    entries.sort(Comparator.comparing(Entry::lastUsed).reversed());
    return entries;
  }

  /**
   * Removes every entry not being extracted right now; returns how many. A job that links an entry
   * keeps its file (the link holds the bytes); only the cache forgets it.
   */
  public int clear() throws IOException {
    int n = 0;
    for (Entry e : list()) {
      ReentrantLock lock = stripe(e.key());
      if (lock.tryLock()) {
        try {
          drop(e.key());
          n++;
        } finally {
          lock.unlock();
        }
      }
    }
    return n;
  }

  /**
   * Removes the entry of {@code key} unless it is being extracted right now; true if it was there
   * and is gone. A job that links it keeps its file.
   */
  public boolean remove(String key) throws IOException {
    if (!key.matches("[0-9a-f]{64}")) {
      return false; // not a key: never a path of the directory
    }
    ReentrantLock lock = stripe(key);
    if (!lock.tryLock()) {
      return false;
    }
    try {
      boolean there = read(key).isPresent();
      drop(key);
      return there;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Least recently used entries that no job links and no extraction holds, until under the limit.
   */
  public synchronized void evict() throws IOException {
    List<Entry> entries = list();
    long total = entries.stream().mapToLong(Entry::bytes).sum();
    for (int i = entries.size() - 1; i >= 0 && total > maxBytes; i--) {
      Entry e = entries.get(i);
      ReentrantLock lock = stripe(e.key());
      if (e.inUse() || !lock.tryLock()) {
        continue;
      }
      try {
        drop(e.key());
        total -= e.bytes();
        log.info(
            "stage-in cache: evicted {} ({} bytes, last used {})",
            e.key(),
            e.bytes(),
            e.lastUsed());
      } finally {
        lock.unlock();
      }
    }
  }

  private void drop(String key) throws IOException {
    Files.deleteIfExists(dir.resolve(key));
    Files.deleteIfExists(meta(key));
  }

  private Path meta(String key) {
    return dir.resolve(key + META);
  }

  private Optional<Entry> read(String key) throws IOException {
    Path m = meta(key);
    Path data = dir.resolve(key);
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(m)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    int links;
    try {
      links = (Integer) Files.getAttribute(data, "unix:nlink");
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Entry(
              key,
              data,
              p.getProperty("sha256"),
              Long.parseLong(p.getProperty("bytes")),
              Long.parseLong(p.getProperty("rows")),
              Instant.parse(p.getProperty("created")),
              Files.getLastModifiedTime(m).toInstant(),
              p.getProperty("source"),
              p.getProperty("detail"),
              links > 1));
    } catch (RuntimeException unreadable) {
      log.warn("stage-in cache entry {} has an unreadable description; dropped", key);
      drop(key);
      return Optional.empty();
    }
  }
}
