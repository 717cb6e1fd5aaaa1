package io.gantry.staging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Optional;

/**
 * What standard {@code DataStaging} may reach, as an operator set it. Checked when a job is
 * validated (so a job that cannot stage never waits in the queue) and again at the moment of each
 * transfer (a queued job is judged by the rules in force when it runs; a link made meanwhile is
 * caught).
 *
 * <ol>
 *   <li>{@code file:} URIs must name a path under one of {@code fileRoots}, after every symbolic
 *       link is resolved; without roots, {@code file:} is refused.
 *   <li>Network URIs must name a host and port {@code hosts} allows (the staging.allowed-hosts rule
 *       of scp/sftp and inline data sources).
 *   <li>https and ftps check the server's certificate against {@code trustStore}, or the JDK's
 *       trust store when none is set.
 * </ol>
 *
 * @param fileRoots directories file: URIs may read and write under
 * @param trustStore certificates https and ftps servers are checked against; null: the JDK's
 * @param hosts why a host and port may not be reached, or empty
 */
public record UriStagingPolicy(List<Path> fileRoots, KeyStore trustStore, HostCheck hosts) {

  /** The host rule: why staging may not connect to {@code host:port}, or empty. */
  @FunctionalInterface
  public interface HostCheck {
    Optional<String> problem(String host, int port);
  }

  public UriStagingPolicy {
    fileRoots = List.copyOf(fileRoots == null ? List.of() : fileRoots);
    hosts = hosts == null ? (h, p) -> Optional.empty() : hosts;
  }

  /**
   * No file roots, the JDK's trust store, every host: for tools and tests that trust every plan.
   */
  public static UriStagingPolicy networkOnly() {
    return new UriStagingPolicy(List.of(), null, null);
  }

  /** Why {@code transfer} may not run under this policy, or empty. */
  public Optional<String> problem(UriTransfer transfer) {
    if (transfer.scheme().equals("file")) {
      return fileProblem(transfer.uri().getPath(), transfer.direction());
    }
    if (transfer.isJobOutput()) {
      return jobOutputProblem(transfer);
    }
    String host = transfer.uri().getHost();
    if (host == null || host.isEmpty()) {
      return Optional.of(transfer.scheme() + ": URI '" + transfer.describe() + "' names no host");
    }
    if (transfer.uri().getPath() == null
        || transfer.uri().getPath().isEmpty()
        || transfer.uri().getPath().equals("/")) {
      return Optional.of(transfer.describe() + " names no file");
    }
    return hosts.problem(host, transfer.port());
  }

  /**
   * Why a {@code gantry-job:} transfer cannot run: it is only a Source, of the form {@code
   * gantry-job:JOB/FILE}. Which jobs and files it may name is the server's rule, checked at
   * validation.
   */
  private static Optional<String> jobOutputProblem(UriTransfer transfer) {
    if (transfer.direction() == UriTransfer.Direction.OUT) {
      return Optional.of(
          transfer.describe() + " names an earlier job's file: it can only be a Source");
    }
    try {
      io.gantry.jsdl.JobOutputUri.parse(transfer.uri().toString());
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Why {@code path} is not a file staging may use: it must be absolute and lie under a root once
   * links are resolved (the file for reading, its parent directory for writing; a link as the
   * target of a write is refused, since the rename would replace the link, not follow it).
   */
  public Optional<String> fileProblem(String path, UriTransfer.Direction direction) {
    if (fileRoots.isEmpty()) {
      return Optional.of("file: URIs are turned off on this server (no staging.file-roots set)");
    }
    if (path == null || !path.startsWith("/")) {
      return Optional.of("a file: URI needs an absolute path, as file:///dir/name");
    }
    Path file = Path.of(path).normalize();
    try {
      Path real =
          direction == UriTransfer.Direction.IN || Files.exists(file, LinkOption.NOFOLLOW_LINKS)
              ? realOrParent(file)
              : realOrParent(file.getParent()).resolve(file.getFileName());
      if (direction == UriTransfer.Direction.OUT && Files.isSymbolicLink(file)) {
        return Optional.of(
            "file:" + path + " is a symbolic link; stage-out writes only regular files");
      }
      for (Path root : fileRoots) {
        if (real.startsWith(root.toRealPath())) {
          return Optional.empty();
        }
      }
    } catch (IOException e) {
      return Optional.of("file:" + path + " cannot be checked: " + e.getMessage());
    }
    return Optional.of(
        "file:"
            + path
            + " is outside the directories of staging.file-roots"
            + " (after resolving symbolic links)");
  }

  /** The real path of {@code p}, or of its nearest existing ancestor with the rest appended. */
  private static Path realOrParent(Path p) throws IOException {
    if (p == null) {
      throw new IOException("no parent directory");
    }
    if (Files.exists(p)) {
      return p.toRealPath();
    }
    Path parent = p.getParent();
    return parent == null ? p : realOrParent(parent).resolve(p.getFileName());
  }
}
