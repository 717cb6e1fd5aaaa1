package io.gantry.staging;

import io.gantry.staging.internal.cache.CacheStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The stage-in cache: SQL extracts kept under a directory of the compute file system (beneath the
 * staging root, so every compute host sees it), keyed by what was asked (staging-gateway/README.md,
 * "Stage-in cache"). Give it to {@link StagingGateway#useCache}; an extract whose {@link CacheRule}
 * allows it is then served from here when a valid entry exists.
 */
public final class StageInCache {
  private final CacheStore store;

  private StageInCache(CacheStore store) {
    this.store = store;
  }

  /**
   * Opens (creating, mode 0700) the cache in {@code directory}, evicting least recently used
   * entries beyond {@code maxBytes}.
   */
  public static StageInCache open(Path directory, long maxBytes) throws IOException {
    return new StageInCache(new CacheStore(directory, maxBytes));
  }

  /**
   * One cached extract.
   *
   * @param key the content key (SHA-256, hex)
   * @param bytes size of the cached file
   * @param rows data rows
   * @param created when it was extracted
   * @param lastUsed when it was last extracted or served
   * @param source the data source, described without secrets
   * @param detail the statement
   * @param inUse linked into a job directory, so never evicted
   */
  public record Entry(
      String key,
      long bytes,
      long rows,
      Instant created,
      Instant lastUsed,
      String source,
      String detail,
      boolean inUse) {}

  /** Every entry, most recently used first. */
  public List<Entry> list() {
    try {
      return store.list().stream()
          .map(
              e ->
                  new Entry(
                      e.key(),
                      e.bytes(),
                      e.rows(),
                      e.created(),
                      e.lastUsed(),
                      e.source(),
                      e.detail(),
                      e.inUse()))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the stage-in cache " + store.directory(), e);
    }
  }

  /** Forgets every entry; jobs that link one keep their file. Returns how many were removed. */
  public int clear() {
    try {
      return store.clear();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear the stage-in cache " + store.directory(), e);
    }
  }

  /**
   * Forgets the entry with {@code key} (as {@link Entry#key} gives it); false if there is none or
   * it is being filled right now. A job that links it keeps its file.
   */
  public boolean remove(String key) {
    try {
      return store.remove(key);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot remove from the stage-in cache " + store.directory(), e);
    }
  }

  /** The size limit ({@code cache.max-bytes}). */
  public long maxBytes() {
    return store.maxBytes();
  }

  public Path directory() {
    return store.directory();
  }

  CacheStore store() {
    return store;
  }
}
