package io.gantry.staging.internal.uri;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.CredentialResolver;
import io.gantry.staging.GatewayOptions;
import io.gantry.staging.ManifestRecord;
import io.gantry.staging.NamedFileSystem;
import io.gantry.staging.StagingException;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriStagingPolicy;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.CacheStore;
import io.gantry.staging.internal.cache.RemoteFileCache;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.files.AccountFiles;
import io.gantry.staging.internal.files.Checksums;
import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.files.StagedFile;
import io.gantry.staging.internal.steps.RetriedAttempts;
import io.gantry.staging.internal.steps.Step;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one standard {@code DataStaging} transfer.
 *
 * <ol>
 *   <li>The policy is checked again at the moment of use (host rule, file roots).
 *   <li>Stage-in honours the {@code CreationFlag} on the job-directory file: {@code dontOverwrite}
 *       fails if it exists (and never replaces one that appears meanwhile), {@code append} adds the
 *       fetched bytes after the existing ones, {@code overwrite} replaces; the bytes arrive under a
 *       temporary name with their SHA-256 and are renamed when complete.
 *   <li>A retryable failure is tried again from the start with backoff, up to the gateway's {@code
 *       connectAttempts} ({@link RetriedAttempts}, shared with scp and sftp); the final message
 *       says how many attempts failed and why.
 * </ol>
 */
public final class UriTransferStep implements Step {
  private final UriTransfer transfer;
  private final JobFiles jobDirectory;
  private final CredentialResolver credentials;
  private final GatewayOptions options;
  private final UriStagingPolicy policy;
  private final Map<String, UriScheme> schemes;
  private final CacheStore cache;

  /**
   * @param cache the stage-in cache; null for none (and always for stage-out)
   */
  public UriTransferStep(
      UriTransfer transfer,
      JobFiles jobDirectory,
      CredentialResolver credentials,
      GatewayOptions options,
      UriStagingPolicy policy,
      Map<String, UriScheme> schemes,
      CacheStore cache) {
    this.cache = cache;
    this.transfer = transfer;
    this.jobDirectory = jobDirectory;
    this.credentials = credentials;
    this.options = options;
    this.policy = policy;
    this.schemes = schemes;
  }

  @Override
  public int group() {
    return transfer.order();
  }

  @Override
  public String label() {
    return transfer.label();
  }

  @Override
  public ManifestRecord run(StepContext context) throws StagingException, InterruptedException {
    Optional<String> problem = policy.problem(transfer);
    if (problem.isPresent()) {
      throw new StagingException(label(), problem.get());
    }
    UriLogin login = login();
    return RetriedAttempts.run(label(), options, context, () -> attempt(login, context));
  }

  private UriLogin login() throws StagingException {
    try {
      return credentials.uriLogin(transfer);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new StagingException(
          label(), "credentials for " + transfer.describe() + ": " + e.getMessage(), e);
    }
  }

  private ManifestRecord attempt(UriLogin login, StepContext context)
      throws UriFailure, IOException, InterruptedException {
    long start = System.nanoTime();
    UriScheme scheme = schemes.get(transfer.scheme());
    return transfer.direction() == UriTransfer.Direction.IN
        ? fetch(scheme, login, context, start)
        : send(scheme, login, context, start);
  }

  private ManifestRecord fetch(UriScheme scheme, UriLogin login, StepContext context, long start)
      throws UriFailure, IOException, InterruptedException {
    if (transfer.fileSystem() != null) {
      return fetchIntoFileSystem(scheme, login, context, start);
    }
    JobFiles dir = directory();
    if (dir.local() == null) {
      return fetchRemote(dir, scheme, login, context, start);
    }
    Path target = dir.local().resolve(transfer.fileName(), "FileName");
    CreationFlag flag = transfer.creationFlag();
    boolean exists = Files.exists(target, LinkOption.NOFOLLOW_LINKS);
    if (exists && flag == CreationFlag.DONT_OVERWRITE) {
      throw UriFailure.permanent(
          transfer.fileName() + " exists and the CreationFlag is dontOverwrite", null);
    }
    if (RemoteFileCache.applies(cache, transfer.cache(), flag)) {
      // asked with the job's own login: a server that refuses it refuses the cached copy too
      Optional<RemoteVersion> version = scheme.version(transfer, login, context);
      if (version.isPresent()) {
        RemoteFileCache.Source source =
            new RemoteFileCache.Source(
                location(),
                login == null ? "" : login.user(),
                "as sent",
                transfer.describe(),
                transfer.uri().getPath(),
                transfer.staged().toString());
        try {
          return RemoteFileCache.through(
              cache,
              transfer.cache(),
              source,
              version.get(),
              target,
              flag,
              ManifestRecord.URI_IN_CACHED,
              start,
              () -> download(scheme, login, context, start, target, false),
              () -> scheme.version(transfer, login, context));
        } catch (IOException e) {
          throw dontOverwrite(flag, e);
        }
      }
    }
    return download(scheme, login, context, start, target, exists);
  }

  /** The fetch without the cache. */
  private ManifestRecord download(
      UriScheme scheme,
      UriLogin login,
      StepContext context,
      long start,
      Path target,
      boolean exists)
      throws UriFailure, IOException, InterruptedException {
    CreationFlag flag = transfer.creationFlag();
    try (StagedFile file =
        exists && flag == CreationFlag.APPEND
            ? StagedFile.appendingTo(target, Files.size(target))
            : StagedFile.create(target)) {
      long before = file.bytes();
      scheme.download(transfer, login, file.stream(), context);
      String sha256 = file.commit(flag);
      context.progress().add(0, file.bytes() - before);
      return record("uri-in", transfer.staged().toString(), file.bytes(), sha256, start);
    } catch (IOException e) {
      throw dontOverwrite(flag, e);
    }
  }

  /**
   * Into a job directory on the cluster: the source streams into an SFTP write, host to host.
   * Appending would need the old bytes copied first; it is refused, naming the file. The stage-in
   * cache is never consulted here: its copies live on this server and a hit is a hard link, which
   * cannot reach a directory on the cluster (the cache is a feature of local job directories).
   */
  private ManifestRecord fetchRemote(
      JobFiles dir, UriScheme scheme, UriLogin login, StepContext context, long start)
      throws UriFailure, IOException, InterruptedException {
    CreationFlag flag = transfer.creationFlag();
    if (flag != CreationFlag.OVERWRITE && dir.exists(transfer.fileName(), "FileName")) {
      throw UriFailure.permanent(
          transfer.fileName()
              + (flag == CreationFlag.APPEND
                  ? " exists, and appending to a file of a job directory on the cluster is not"
                      + " supported"
                  : " exists and the CreationFlag is dontOverwrite"),
          null);
    }
    try (OutputFile file = dir.create(transfer.fileName(), "FileName")) {
      scheme.download(transfer, login, file.stream(), context);
      String sha256 = file.commit(flag == CreationFlag.APPEND ? CreationFlag.OVERWRITE : flag);
      context.progress().add(0, file.bytes());
      return record("uri-in", transfer.staged().toString(), file.bytes(), sha256, start);
    }
  }

  /**
   * Into a JSDL file system: never when it is read-only (unless the operator allows staging to
   * write it), and as the job's OS account ({@link AccountFiles}), so the kernel decides what the
   * job may create or replace there, and another account's file is never replaced. The stage-in
   * cache is not used: a hit is a hard link to the server's entry, which has no place in a
   * directory other users share.
   */
  private ManifestRecord fetchIntoFileSystem(
      UriScheme scheme, UriLogin login, StepContext context, long start)
      throws UriFailure, IOException, InterruptedException {
    NamedFileSystem fs = transfer.fileSystem();
    if (!fs.stagingWrites()) {
      throw UriFailure.permanent(
          "file system "
              + fs.name()
              + " is read-only: staging does not write "
              + transfer.fileName()
              + " into it (the operator allows that only with filesystem."
              + fs.name()
              + ".staging-writes=true)",
          null);
    }
    JobDirectory dir = new JobDirectory(fs.root());
    if (fs.account() == null) { // the gateway run alone: its caller's own rights
      return download(
          scheme,
          login,
          context,
          start,
          dir.resolve(transfer.fileName(), "FileName"),
          dir.exists(transfer.fileName(), "FileName"));
    }
    AccountFiles files = new AccountFiles(fs.account(), dir.root(), "file system " + fs.name());
    Path target = dir.locate(transfer.fileName(), "FileName");
    CreationFlag flag = transfer.creationFlag();
    try {
      files.createParents(target);
      dir.requireInside(target, transfer.fileName(), "FileName");
      try (OutputFile file = files.create(target, flag)) {
        long before = file.bytes();
        scheme.download(transfer, login, file.stream(), context);
        String sha256 = file.commit(flag);
        context.progress().add(0, file.bytes() - before);
        return record("uri-in", transfer.staged().toString(), file.bytes(), sha256, start);
      }
    } catch (IOException e) {
      // refusals by the kernel or by the owner rule do not change when tried again
      throw UriFailure.permanent(e.getMessage(), e);
    }
  }

  /** A file that appeared meanwhile under a dontOverwrite name is final; other errors stay. */
  private static IOException dontOverwrite(CreationFlag flag, IOException e) throws UriFailure {
    if (flag == CreationFlag.DONT_OVERWRITE
        && e.getMessage() != null
        && e.getMessage().contains("dontOverwrite")) {
      throw UriFailure.permanent(e.getMessage(), e);
    }
    return e;
  }

  /** The URI without user information or fragment: what the cache key names. */
  private String location() {
    java.net.URI u = transfer.uri();
    return transfer.scheme().equals("file")
        ? "file://" + Path.of(u.getPath()).normalize()
        : transfer.describe() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
  }

  private ManifestRecord send(UriScheme scheme, UriLogin login, StepContext context, long start)
      throws UriFailure, IOException, InterruptedException {
    SeekableByteChannel source;
    try {
      source = openForSending();
    } catch (NoSuchFileException e) {
      throw UriFailure.permanent(e.getFile() + " (the job did not write it)", null);
    } catch (IOException e) {
      throw UriFailure.permanent(e.getMessage(), e);
    }
    try (source) {
      String sha256 = Checksums.sha256(source);
      long bytes = scheme.upload(transfer, login, source, source.size(), context);
      context.progress().add(0, bytes);
      return record("uri-out", transfer.staged().toString(), bytes, sha256, start);
    }
  }

  /**
   * The file to send: from the job directory as the server ({@link
   * io.gantry.staging.JobDirectoryReader}), from a file system as the job's OS account, so a file
   * the job's program could not read is not read for it either.
   */
  private SeekableByteChannel openForSending() throws IOException {
    NamedFileSystem fs = transfer.fileSystem();
    if (fs == null || fs.account() == null) {
      return directory().openForReading(transfer.fileName(), "FileName");
    }
    JobDirectory dir = new JobDirectory(fs.root());
    Path file = dir.locate(transfer.fileName(), "FileName");
    try {
      return new AccountFiles(fs.account(), dir.root(), "file system " + fs.name())
          .copyForReading(file);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException("FileName '" + transfer.fileName() + "' does not exist");
    }
  }

  /**
   * Where the FileName lies: the job directory, or the root of the file system the DataStaging
   * names, opened under the same confinement (no {@code ..}, no link leading out).
   */
  private JobFiles directory() throws IOException {
    return transfer.fileSystem() == null
        ? jobDirectory
        : new JobDirectory(transfer.fileSystem().root());
  }

  private ManifestRecord record(String kind, String file, long bytes, String sha256, long start) {
    return new ManifestRecord(
        kind,
        transfer.describe(),
        transfer.uri().getPath(),
        file,
        -1,
        bytes,
        sha256,
        (System.nanoTime() - start) / 1e9,
        false);
  }
}
