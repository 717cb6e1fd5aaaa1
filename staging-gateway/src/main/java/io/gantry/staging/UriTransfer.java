package io.gantry.staging;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * One standard JSDL {@code DataStaging} movement: a file of the job directory fetched from {@code
 * Source/URI} before the job runs ({@link Direction#IN}) or sent to {@code Target/URI} after it
 * ends ({@link Direction#OUT}). A DataStaging element with both a Source and a Target becomes two
 * transfers.
 *
 * @param order position of the DataStaging element in the document (1-based): transfers run one
 *     after another in this order, so the audit trail reads like the document
 * @param direction IN (URI to job directory) or OUT (job directory to URI)
 * @param uri the remote side; its scheme picks the protocol
 * @param fileName the job-relative file ({@code FileName})
 * @param creationFlag GFD.56 {@code CreationFlag}: what stage-in does when {@code fileName} exists
 *     in the job directory
 * @param credential what the {@link CredentialResolver} resolves the login from: an SSH identity
 *     name or an encrypted password token (never a clear-text secret); null for none
 * @param user the login name (UsernameToken {@code Username}, else the URI's user part); null for
 *     anonymous
 * @param fileSystem the file system {@code fileName} is relative to (DataStaging {@code
 *     FilesystemName}); null for the job directory
 * @param cache when a stage-in may come from the stage-in cache (the Gantry extension element
 *     {@code gx:CacheValidity} inside the {@code DataStaging}; the remote file's size and
 *     modification time are the key); null: never cached
 * @param account the job's OS account, as which a {@code file:} URI's file is read or written
 *     ({@link FileAccount}); null only where the gateway runs alone, with its caller's rights
 */
public record UriTransfer(
    int order,
    Direction direction,
    URI uri,
    String fileName,
    CreationFlag creationFlag,
    String credential,
    String user,
    NamedFileSystem fileSystem,
    CacheRule cache,
    FileAccount account) {

  /** The schemes the gateway moves, in the order messages list them. */
  public static final java.util.List<String> SCHEMES =
      java.util.List.of(
          "file",
          "http",
          "https",
          "scp",
          "sftp",
          "ftp",
          "ftps",
          io.gantry.jsdl.JobOutputUri.SCHEME);

  public enum Direction {
    IN,
    OUT
  }

  /** A transfer with the gateway's own rights on {@code file:} URIs. */
  public UriTransfer(
      int order,
      Direction direction,
      URI uri,
      String fileName,
      CreationFlag creationFlag,
      String credential,
      String user,
      NamedFileSystem fileSystem,
      CacheRule cache) {
    this(order, direction, uri, fileName, creationFlag, credential, user, fileSystem, cache, null);
  }

  /**
   * This transfer done as {@code jobAccount}: its {@code file:} URI and its file system's files are
   * handled as that account.
   */
  public UriTransfer as(FileAccount jobAccount) {
    return new UriTransfer(
        order,
        direction,
        uri,
        fileName,
        creationFlag,
        credential,
        user,
        fileSystem == null ? null : fileSystem.as(jobAccount),
        cache,
        jobAccount);
  }

  /** A transfer that is never cached. */
  public UriTransfer(
      int order,
      Direction direction,
      URI uri,
      String fileName,
      CreationFlag creationFlag,
      String credential,
      String user,
      NamedFileSystem fileSystem) {
    this(order, direction, uri, fileName, creationFlag, credential, user, fileSystem, null);
  }

  /** A transfer of a file in the job directory. */
  public UriTransfer(
      int order,
      Direction direction,
      URI uri,
      String fileName,
      CreationFlag creationFlag,
      String credential,
      String user) {
    this(order, direction, uri, fileName, creationFlag, credential, user, null, null);
  }

  public UriTransfer {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(creationFlag, "creationFlag");
    if (fileName == null || fileName.isBlank()) {
      throw new IllegalArgumentException("FileName must not be empty");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!SCHEMES.contains(scheme)) {
      throw new IllegalArgumentException(unsupported(uri.getScheme()));
    }
  }

  /** The message for a scheme the gateway cannot move. */
  public static String unsupported(String scheme) {
    return "Gantry cannot stage "
        + (scheme == null || scheme.isEmpty() ? "a URI without a scheme" : "'" + scheme + ":' URIs")
        + "; it stages "
        + String.join(":, ", SCHEMES)
        + ": URIs";
  }

  /** Whether the source is a file of an earlier job ({@code gantry-job:JOB/FILE}). */
  public boolean isJobOutput() {
    return scheme().equals(io.gantry.jsdl.JobOutputUri.SCHEME);
  }

  /** The URI's scheme, lower case. */
  public String scheme() {
    return uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
  }

  /** The port the URI names, or the scheme's default. */
  public int port() {
    return uri.getPort() > 0 ? uri.getPort() : defaultPort(scheme());
  }

  public static int defaultPort(String scheme) {
    return switch (scheme) {
      case "http" -> 80;
      case "https" -> 443;
      case "scp", "sftp" -> 22;
      case "ftp", "ftps" -> 21;
      default -> -1;
    };
  }

  /**
   * The URI without user information, query or fragment: safe for messages and the manifest (a user
   * may put a password in the user part; it is never repeated).
   */
  public String describe() {
    if (scheme().equals("file")) {
      return "file://" + uri.getPath();
    }
    if (isJobOutput()) {
      return uri.toString(); // names a job and its file, nothing secret
    }
    return scheme()
        + "://"
        + uri.getHost()
        + ":"
        + port()
        + (uri.getRawPath() == null ? "" : uri.getRawPath());
  }

  /** The staged file: its name and the file system it is relative to. */
  public StagedName staged() {
    return new StagedName(fileSystem, fileName);
  }

  public String label() {
    String file = staged().toString();
    return (direction == Direction.IN
            ? "stage in " + describe() + " to " + file
            : "stage out " + file + " to " + describe())
        + " (DataStaging "
        + order
        + ")";
  }
}
