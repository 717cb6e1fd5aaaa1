package io.gantry.staging.internal.uri;

import io.gantry.staging.NamedFileSystem;
import io.gantry.staging.StagedName;
import io.gantry.staging.internal.files.AccountFiles;
import io.gantry.staging.internal.files.JobDirectory;
import io.gantry.staging.internal.files.JobFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * GFD.56 {@code DeleteOnTermination}: the files so marked are removed once the job has terminated,
 * whatever its outcome. The names go through the same rules as every staged file (relative, no
 * {@code ..}, no link leading out of the job directory or file system), and a link is removed,
 * never what it points to.
 */
public final class DeleteOnTermination {
  private DeleteOnTermination() {}

  /**
   * Deletes each file that exists ({@code jobDirectory} null when the job never got one: only files
   * in file systems are then looked for); returns the names actually removed. Every name is tried
   * even when one fails; the first failure is thrown afterwards, naming the file.
   */
  public static List<StagedName> apply(JobFiles jobDirectory, List<StagedName> names)
      throws IOException {
    List<StagedName> removed = new ArrayList<>();
    IOException first = null;
    for (StagedName name : names) {
      if (name.fileSystem() == null && jobDirectory == null) {
        continue;
      }
      try {
        if (name.fileSystem() != null && name.fileSystem().account() != null) {
          if (inFileSystem(name)) {
            removed.add(name);
          }
          continue;
        }
        JobFiles dir =
            name.fileSystem() == null ? jobDirectory : new JobDirectory(name.fileSystem().root());
        if (dir.delete(name.fileName(), "FileName")) {
          removed.add(name);
        }
      } catch (IOException e) {
        if (first == null) {
          first = new IOException("cannot delete " + name + ": " + e.getMessage(), e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return removed;
  }

  /**
   * In a file system, as the job's OS account: only the account's own file, only where staging may
   * write (a read-only file system is left alone unless the operator allows it).
   */
  private static boolean inFileSystem(StagedName name) throws IOException {
    NamedFileSystem fs = name.fileSystem();
    if (!fs.stagingWrites()) {
      throw new IOException("file system " + fs.name() + " is read-only; nothing is deleted there");
    }
    JobDirectory dir = new JobDirectory(fs.root());
    Path file = dir.locate(name.fileName(), "FileName");
    return new AccountFiles(fs.account(), dir.root(), "file system " + fs.name()).delete(file);
  }
}
