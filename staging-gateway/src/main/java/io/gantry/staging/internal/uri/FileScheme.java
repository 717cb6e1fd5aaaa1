package io.gantry.staging.internal.uri;

import io.gantry.staging.CreationFlag;
import io.gantry.staging.UriLogin;
import io.gantry.staging.UriStagingPolicy;
import io.gantry.staging.UriTransfer;
import io.gantry.staging.internal.cache.RemoteVersion;
import io.gantry.staging.internal.files.AccountFiles;
import io.gantry.staging.internal.files.OutputFile;
import io.gantry.staging.internal.files.StagedFile;
import io.gantry.staging.internal.steps.StepContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * {@code file:} URIs, confined to the operator's roots. The root check runs again here, at the
 * moment of use, on the real path: a symbolic link planted after validation cannot lead out. Reads
 * open the file without following a final link; writes go through a temporary name and a rename
 * inside the (checked) directory.
 *
 * <p>With the job's OS account on the transfer (always, on the server), every read and write here
 * is done as that account ({@link AccountFiles}): a root shared by every user still keeps their
 * files apart by owner and mode, and another account's file is never replaced.
 */
public final class FileScheme implements UriScheme {
  private final UriStagingPolicy policy;

  public FileScheme(UriStagingPolicy policy) {
    this.policy = policy;
  }

  @Override
  public long download(UriTransfer transfer, UriLogin login, OutputStream out, StepContext context)
      throws UriFailure, IOException {
    Path file = checked(transfer);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw UriFailure.permanent(transfer.describe() + " is not a regular file", null);
    }
    if (transfer.account() != null) {
      try {
        return new AccountFiles(transfer.account(), file.getParent(), "the file: root")
            .read(file, out);
      } catch (IOException e) {
        throw UriFailure.permanent(e.getMessage(), e);
      }
    }
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      return in.transferTo(out);
    }
  }

  /** Size and modification time (to the file system's precision), without following a link. */
  @Override
  public Optional<RemoteVersion> version(UriTransfer transfer, UriLogin login, StepContext context)
      throws UriFailure, IOException {
    Path file = checked(transfer);
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty(); // the download reports it
    }
    if (!a.isRegularFile()) {
      return Optional.empty();
    }
    if (transfer.account() != null
        && !new AccountFiles(transfer.account(), file.getParent(), "the file: root")
            .canRead(file)) {
      return Optional.empty(); // no cached copy for a job that may not read the file itself
    }
    return Optional.of(new RemoteVersion(a.size(), "mtime " + a.lastModifiedTime().toInstant()));
  }

  @Override
  public long upload(
      UriTransfer transfer,
      UriLogin login,
      SeekableByteChannel source,
      long size,
      StepContext context)
      throws UriFailure, IOException {
    Path target = checked(transfer);
    if (transfer.account() != null) {
      try {
        AccountFiles files =
            new AccountFiles(transfer.account(), existingAncestor(target), "the file: root");
        files.createParents(target);
        if (policy.fileProblem(target.toString(), transfer.direction()).isPresent()) {
          throw new IOException(transfer.describe() + " leads outside the file roots");
        }
        try (OutputFile staged = files.create(target, CreationFlag.OVERWRITE);
            InputStream in = Channels.newInputStream(source)) {
          in.transferTo(staged.stream());
          staged.commit(CreationFlag.OVERWRITE);
          return staged.bytes();
        }
      } catch (IOException e) {
        throw UriFailure.permanent(e.getMessage(), e);
      }
    }
    Files.createDirectories(target.getParent());
    try (StagedFile staged = StagedFile.create(target);
        InputStream in = Channels.newInputStream(source)) {
      in.transferTo(staged.stream());
      staged.commit(CreationFlag.OVERWRITE);
      return staged.bytes();
    }
  }

  /**
   * The nearest directory above {@code file} that exists (the policy checked it lies in a root).
   */
  private static Path existingAncestor(Path file) {
    Path dir = file.getParent();
    while (!Files.isDirectory(dir)) {
      dir = dir.getParent();
    }
    return dir;
  }

  private Path checked(UriTransfer transfer) throws UriFailure {
    var problem = policy.fileProblem(transfer.uri().getPath(), transfer.direction());
    if (problem.isPresent()) {
      throw UriFailure.permanent(problem.get(), null);
    }
    return Path.of(transfer.uri().getPath()).normalize();
  }
}
