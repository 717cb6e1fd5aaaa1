package io.gantry.dispatcher.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The one batch script every Slurm job of this server is submitted with. It contains no text of any
 * job: the job's output files and its program with arguments arrive as the script's arguments
 * ({@code "$@"}), which the shell passes on without parsing them. sbatch reads the script when
 * submitting, so it only has to exist on the submitting host.
 */
public final class BatchScript {
  public static final String TEXT =
      """
      #!/bin/sh
      # Written by gantry-server. Arguments: STDOUT STDERR PROGRAM [ARGUMENT]...
      # No job text is part of this file: it only passes its arguments on, quoted.
      out=$1
      err=$2
      shift 2
      if [ "$out" = "$err" ]; then
        exec "$@" >"$out" 2>&1
      fi
      exec "$@" >"$out" 2>"$err"
      """;

  /** The script's file name in its directory. */
  public static final String NAME = "gantry-batch.sh";

  private BatchScript() {}

  /**
   * Writes the script into {@code directory} (replacing an older one atomically) and returns its
   * path.
   */
  public static Path install(Path directory) throws IOException {
    Files.createDirectories(directory);
    Path script = directory.resolve(NAME);
    Path temporary = Files.createTempFile(directory, "gantry-batch", ".tmp");
    Files.writeString(temporary, TEXT, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.move(
        temporary, script, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return script;
  }
}
