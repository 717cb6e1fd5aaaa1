package io.gantry.server.internal.storagewatch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's watch over its own storage: the data directory (keys, keystore, job directories) and
 * the job store. A server that did not notice them failing kept acknowledging jobs it had not kept:
 * H2 writes on into a deleted file, and after a restart every job, user and key was gone.
 *
 * <ol>
 *   <li>Every {@code interval}, and at once through {@link #checkNow}, each watched directory must
 *       still be the one found at start (same device and inode: deleted and made again is not the
 *       same, its keys are gone) and take a written, synced and deleted probe file; the H2 store
 *       file must still be the one opened; the job store must take a durable write.
 *   <li>While any of that fails, {@link #problem} says what, in words for a client: the server
 *       refuses new work (a SOAP fault, a 503 page) instead of answering from a store it cannot
 *       trust.
 *   <li>When everything passes again (a file system remounted read-write, space freed, a directory
 *       moved back), the next check clears the problem: no restart needed.
 * </ol>
 */
public final class StorageWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StorageWatch.class);
  static final String PROBE_FILE = ".gantry-storage-probe";

  /** A durable write to the job store; throws when it cannot be made. */
  @FunctionalInterface
  public interface StoreProbe {
    void write() throws Exception;
  }

  private record Watched(String role, Path path, Object key) {}

  private final List<Watched> directories = new ArrayList<>();
  private final Path storeFile;
  private final Object storeFileKey;
  private final StoreProbe storeProbe;
  private final Duration interval;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "gantry-storage-watch");
            t.setDaemon(true);
            return t;
          });
  private volatile Optional<String> problem = Optional.empty();

  /**
   * @param directories what each directory is to the server ("the data directory"), for messages
   *     that clients see without the server's paths, and the directory as found now
   * @param storeFile the H2 job store's file, or null for a store on a database server
   */
  public StorageWatch(
      Map<String, Path> directories, Path storeFile, StoreProbe storeProbe, Duration interval)
      throws IOException {
    for (Map.Entry<String, Path> dir : directories.entrySet()) {
      this.directories.add(new Watched(dir.getKey(), dir.getValue(), identity(dir.getValue())));
    }
    this.storeFile = storeFile;
    this.storeFileKey = storeFile == null ? null : identity(storeFile);
    this.storeProbe = storeProbe;
    this.interval = interval;
  }

  /** Starts the periodic checks. */
  @SuppressWarnings(
      "FutureReturnValueIgnored") // checkNow records its own failures; closing the timer ends the
  // task
  public StorageWatch start() {
    long millis = Math.max(50, interval.toMillis());
    timer.scheduleWithFixedDelay(this::checkNow, millis, millis, TimeUnit.MILLISECONDS);
    return this;
  }

  /** What is wrong with the server's storage as last checked; empty while all is well. */
  public Optional<String> problem() {
    return problem;
  }

  /**
   * Checks at once, with a few {@code stat} calls and no write, that the watched directories and
   * the H2 store file are still the ones the server started on: what a job just stored in a deleted
   * file needs to be told apart, cheaply enough to run for every submission. A problem found is
   * remembered until the next full check.
   */
  public Optional<String> confirmStillThere() {
    List<String> wrong = new ArrayList<>();
    for (Watched dir : directories) {
      try {
        if (!Objects.equals(identity(dir.path()), dir.key())) {
          wrong.add(dir.role() + " was replaced since the server started");
        }
      } catch (IOException e) {
        wrong.add(dir.role() + " is gone");
      }
    }
    if (storeFile != null) {
      storeFileProblem().ifPresent(wrong::add);
    }
    if (wrong.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> now = Optional.of(String.join("; ", wrong));
    problem = now;
    checkSoon();
    return now;
  }

  /** Runs a full check on the watch's own thread, without waiting for it. */
  public void checkSoon() {
    if (!timer.isShutdown()) {
      timer.execute(this::checkNow);
    }
  }

  /** Checks everything now; returns, and remembers, what is wrong. */
  public synchronized Optional<String> checkNow() {
    List<String> wrong = new ArrayList<>();
    directories.forEach(dir -> directoryProblem(dir).ifPresent(wrong::add));
    if (storeFile != null) {
      storeFileProblem().ifPresent(wrong::add);
    }
    if (wrong.isEmpty()) {
      try {
        storeProbe.write();
      } catch (Exception e) {
        wrong.add("the job store cannot be written");
        if (problem.isEmpty()) {
          log.error("the job store cannot be written: {}", e.getMessage());
        }
      }
    }
    Optional<String> now =
        wrong.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", wrong));
    if (!now.equals(problem)) {
      if (now.isPresent()) {
        log.error(
            "storage failing, new work is refused until it is back: {} (watching {}{})",
            now.get(),
            directories.stream().map(d -> d.role() + " " + d.path()).toList(),
            storeFile == null ? "" : " and the job store file " + storeFile);
      } else {
        log.info("storage is back: accepting new work again");
      }
    }
    problem = now;
    return now;
  }

  private static Optional<String> directoryProblem(Watched dir) {
    try {
      if (!Objects.equals(identity(dir.path()), dir.key())) {
        return Optional.of(
            dir.role()
                + " was replaced since the server started (what it held is gone);"
                + " restore it or restart the server");
      }
      Path probe = dir.path().resolve(PROBE_FILE);
      Files.write(
          probe,
          new byte[] {1},
          StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE,
          StandardOpenOption.SYNC);
      Files.delete(probe);
      return Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.of(dir.role() + " is gone");
    } catch (IOException e) {
      return Optional.of(dir.role() + " cannot be written: " + reason(e));
    }
  }

  private Optional<String> storeFileProblem() {
    try {
      if (!Objects.equals(identity(storeFile), storeFileKey)) {
        return Optional.of("the job store file was replaced since the server started");
      }
      return Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.of("the job store file is gone");
    } catch (IOException e) {
      return Optional.of("the job store file cannot be read: " + reason(e));
    }
  }

  /** Device and inode, so that a path made again is told from the one the server started on. */
  private static Object identity(Path path) throws IOException {
    return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
  }

  private static String reason(IOException e) {
    return e instanceof java.nio.file.FileSystemException f && f.getReason() != null
        ? f.getReason()
        : e.getMessage() != null ? e.getMessage() : e.toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
