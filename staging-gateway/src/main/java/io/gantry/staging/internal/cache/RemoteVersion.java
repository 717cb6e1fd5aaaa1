package io.gantry.staging.internal.cache;

/**
 * A remote file's version as the server that holds it reports it: its size and its modification
 * time (or, over HTTP, its entity tag where it sends one). Two fetches of the same URI with equal
 * versions are taken to be the same bytes; a changed file is a different version, so a stage-in
 * cache miss.
 *
 * @param size bytes; -1 where the protocol does not tell (HTTP without Content-Length)
 * @param modified the protocol's own text: {@code mtime 1700000000} (SFTP, SCP, FTP MDTM, file
 *     attributes), {@code etag "abc"} or {@code last-modified Tue, ...} (HTTP)
 */
public record RemoteVersion(long size, String modified) {
  public RemoteVersion {
    if (modified == null || modified.isBlank()) {
      throw new IllegalArgumentException("a remote version needs a modification time or tag");
    }
  }

  @Override
  public String toString() {
    return (size < 0 ? "size unknown" : "size " + size) + ", " + modified;
  }
}
