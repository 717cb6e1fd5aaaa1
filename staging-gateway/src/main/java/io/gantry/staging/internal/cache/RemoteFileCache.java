package io.gantry.staging.internal.cache;

import io.gantry.staging.CacheRule;
import io.gantry.staging.CreationFlag;
import io.gantry.staging.ManifestRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remote files (scp, sftp, and the URIs of standard DataStaging) through the stage-in cache.
 *
 * <p>The key is a SHA-256 over the remote file's location without secrets (scheme, host, port,
 * path, query), the login name (another account may see other files, or none), the version the
 * server reports ({@link RemoteVersion}: size and modification time or entity tag) and the staged
 * form (compressed on arrival or as sent). The caller has already logged in with the job's own
 * credentials and asked the server for the version, so a cached file reaches only a job that the
 * remote server let in and that names the same account.
 *
 * <p>A miss fetches the file as without the cache, then asks for the version again: only when the
 * file did not change while it was being fetched does the fetched file become the entry.
 */
public final class RemoteFileCache {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteFileCache.class);

  /** Bumped when the staged bytes of the same remote file could change. */
  private static final String FORMAT = "gantry-stage-in-cache remote 1";

  private RemoteFileCache() {}

  /**
   * Where the file lies and how it is staged.
   *
   * @param location scheme, host, port, path (and an HTTP query), never a password
   * @param user the login name; empty for anonymous or local files
   * @param form how the bytes are staged: {@code as sent}, or {@code bgzf} when compressed
   * @param manifestSource the manifest record's source for a hit
   * @param manifestDetail the manifest record's detail (the remote path) for a hit
   * @param file the job-relative file, as the manifest names it
   */
  public record Source(
      String location,
      String user,
      String form,
      String manifestSource,
      String manifestDetail,
      String file) {}

  /** Fetches the file into the job directory as without the cache. */
  @FunctionalInterface
  public interface Fetch<F extends Exception> {
    ManifestRecord fetch() throws F, IOException, InterruptedException;
  }

  /** Asks the remote server for the file's version now; empty if it cannot tell. */
  @FunctionalInterface
  public interface Version<F extends Exception> {
    Optional<RemoteVersion> now() throws F, IOException, InterruptedException;
  }

  /**
   * The step through the cache: under the key's lock, a valid entry whose checksum holds is linked
   * to {@code output} (a record of {@code hitKind}); otherwise {@code fetch} runs and, if the
   * version did not change meanwhile, its file becomes the entry.
   */
  public static <F extends Exception> ManifestRecord through(
      CacheStore store,
      CacheRule rule,
      Source source,
      RemoteVersion before,
      Path output,
      CreationFlag flag,
      String hitKind,
      long startNanos,
      Fetch<F> fetch,
      Version<F> after)
      throws F, IOException, InterruptedException {
    String key = key(source, before);
    try (CacheStore.Held held = store.lock(key)) {
      Optional<CacheStore.Entry> hit = store.usable(key, rule.validity(), Instant.now());
      if (hit.isPresent()) {
        CacheStore.Entry e = hit.get();
        CacheStore.linkInto(e.data(), output, flag);
        return new ManifestRecord(
            hitKind,
            source.manifestSource(),
            source.manifestDetail(),
            source.file(),
            -1,
            e.bytes(),
            e.sha256(),
            (System.nanoTime() - startNanos) / 1e9,
            false);
      }
      ManifestRecord fetched = fetch.fetch();
      Optional<RemoteVersion> now = after.now();
      if (now.isEmpty() || !now.get().equals(before)) {
        LOG.info(
            "{} changed while it was fetched ({} before, {} after); not cached",
            source.location(),
            before,
            now.map(RemoteVersion::toString).orElse("unknown"));
        return fetched;
      }
      try {
        store.publish(
            key,
            output,
            fetched.sha256(),
            fetched.bytes(),
            -1,
            source.manifestSource(),
            source.manifestDetail() + " (" + before + ")",
            Instant.now());
      } catch (IOException e) {
        // the job has its file; only later jobs lose the shortcut
        LOG.warn("could not add {} to the stage-in cache: {}", source.location(), e.toString());
      }
      return fetched;
    }
  }

  /** True when {@code rule} lets a stage-in use {@code store} at all. */
  public static boolean applies(CacheStore store, CacheRule rule, CreationFlag flag) {
    return store != null && rule != null && rule.enabled() && flag != CreationFlag.APPEND;
  }

  static String key(Source source, RemoteVersion version) {
    MessageDigest d = sha256();
    field(d, FORMAT);
    field(d, source.location());
    field(d, source.user() == null ? "" : source.user());
    field(d, Long.toString(version.size()));
    field(d, version.modified());
    field(d, source.form());
    return HexFormat.of().formatHex(d.digest());
  }

  private static void field(MessageDigest d, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    d.update(Long.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
    d.update((byte) ':');
    d.update(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
