package io.gantry.staging.internal.uri;

import io.gantry.staging.internal.files.JobDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * GFD.56 {@code DeleteOnTermination}: the files so marked are removed from the job directory once
 * the job has terminated and its stage-out succeeded. The names go through the same job-directory
 * rules as every staged file, and a link is removed, never what it points to.
 */
public final class DeleteOnTermination {
  private DeleteOnTermination() {}

  /** Deletes each file; returns the job-relative names actually removed. */
  public static List<String> apply(JobDirectory dir, List<String> names) throws IOException {
    List<String> removed = new java.util.ArrayList<>();
    for (String name : names) {
      Path file = dir.resolve(name, "FileName");
      if (Files.deleteIfExists(file)) {
        removed.add(name);
      }
    }
    return removed;
  }
}
