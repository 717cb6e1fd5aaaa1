package io.gantry.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens the command agent's own files beside its socket (lock, pid, log) for writing, refusing a
 * link in their place: opened with O_NOFOLLOW, so that a link planted there (by whoever could write
 * the directory) never makes the agent write, truncate or create the file it points to. bin/gantry
 * also checks that the directory is the user's own and 0700; this holds without that check.
 */
final class AgentFiles {
  private AgentFiles() {}

  /** A link stood where the agent writes one of its files; nothing was written. */
  static final class LinkRefused extends FileSystemException {
    private static final long serialVersionUID = 1L;

    LinkRefused(Path file) {
      super(
          file.toString(),
          null,
          "is a link; the command agent writes only a file of its own there (remove the link)");
    }
  }

  /**
   * {@code file} opened for writing, created (owner-only by the agent's umask) if absent.
   *
   * @param truncate whether to empty an existing file (pid and log; never the lock, which another
   *     agent may hold)
   * @throws LinkRefused when a link is in its place
   */
  static FileChannel openForWriting(Path file, boolean truncate) throws IOException {
    List<OpenOption> options = new ArrayList<>();
    options.add(StandardOpenOption.CREATE);
    options.add(StandardOpenOption.WRITE);
    options.add(LinkOption.NOFOLLOW_LINKS);
    if (truncate) {
      options.add(StandardOpenOption.TRUNCATE_EXISTING);
    }
    try {
      return FileChannel.open(file, options.toArray(OpenOption[]::new));
    } catch (IOException e) {
      // O_NOFOLLOW answers a link with ELOOP, whose words vary: name it
      if (Files.isSymbolicLink(file)) {
        throw new LinkRefused(file);
      }
      throw e;
    }
  }
}
