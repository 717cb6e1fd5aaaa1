package io.gantry.cli;

import io.gantry.cli.soap.JobFileChunk;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry get ID PATH [-o FILE]}: downloads a file of a job's directory (a result the program
 * wrote) in chunks of a mebibyte, so a large file never sits whole in memory. The server reads only
 * a regular file inside the job directory; the file arrives under a temporary name beside the
 * target and is renamed when complete, so an interrupted download leaves no half file behind.
 */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "Download a file of a job's directory (relative to it, e.g. results/var.csv.gz) into the"
          + " current directory under its own name, or to -o FILE (- for standard output).",
      "The server reads only regular files inside the job directory (no '..', no links), of"
          + " your own jobs (administrators: any job's). An existing file is not overwritten"
          + " without --force."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry get $id results/var.csv.gz",
      "  gantry get $id results/summary.txt -o -",
      ExitCodes.HELP
    })
final class GetCommand implements Callable<Integer> {
  /** The most getJobFile answers at once. */
  static final int CHUNK = 1 << 20;

  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ID", description = "the job's id")
  String jobId;

  @Parameters(
      index = "1",
      paramLabel = "PATH",
      description = "the file, relative to the job directory")
  String path;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "where to write it (default: its name in the current directory; - for standard output)")
  String output;

  @Option(names = "--force", description = "overwrite FILE if it exists")
  boolean force;

  @Override
  public Integer call() {
    ServerConnection server = gantry.connect();
    long bytes;
    Path target = null;
    if ("-".equals(output)) {
      bytes = download(server, gantry.standardOutput());
      flush(gantry.standardOutput());
    } else {
      target = Path.of(output != null ? output : Path.of(path).getFileName().toString());
      if (Files.exists(gantry.file(target)) && !force) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO, target + " exists; give --force to overwrite it");
      }
      bytes = downloadTo(server, gantry.file(target), target);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (gantry.json) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("jobId", jobId);
      json.put("path", path);
      json.put("file", target == null ? null : target.toString());
      json.put("bytes", bytes);
      JsonOutput.print(out, json);
    } else if (!gantry.quiet && target != null) {
      out.println(bytes + " bytes of " + path + " of job " + jobId + " written to " + target);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Into {@code file}, whole or not at all; errors name it as the user did ({@code target}). */
  private long downloadTo(ServerConnection server, Path file, Path target) {
    Path absolute = file.toAbsolutePath();
    Path temporary = null;
    try {
      temporary = Files.createTempFile(absolute.getParent(), ".gantry-get-", ".part");
      long bytes;
      try (OutputStream out = Files.newOutputStream(temporary)) {
        bytes = download(server, out);
      }
      if (force) {
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(temporary, absolute);
      }
      temporary = null;
      return bytes;
    } catch (FileAlreadyExistsException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, target + " exists; give --force to overwrite it", e);
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "cannot write " + target + ": " + e.getMessage(), e);
    } finally {
      if (temporary != null) {
        try {
          Files.deleteIfExists(temporary);
        } catch (IOException e) {
          // the failure that brought us here was reported already
        }
      }
    }
  }

  private static void flush(OutputStream out) {
    try {
      out.flush();
    } catch (IOException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "cannot write standard output: " + e.getMessage(), e);
    }
  }

  /** Chunk by chunk until the size the server reported; returns the bytes written. */
  private long download(ServerConnection server, OutputStream out) {
    long offset = 0;
    while (true) {
      long from = offset;
      JobFileChunk chunk = server.call(s -> s.getJobFile(jobId, path, from, CHUNK));
      byte[] data = chunk.getData();
      try {
        out.write(data);
      } catch (IOException e) {
        throw new CommandFailure(
            ExitCodes.USAGE_OR_IO, "cannot write " + output + ": " + e.getMessage(), e);
      }
      offset = chunk.getNextOffset();
      if (data.length == 0 || offset >= chunk.getSize()) {
        return offset;
      }
    }
  }
}
