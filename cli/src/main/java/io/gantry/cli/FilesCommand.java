package io.gantry.cli;

import io.gantry.cli.soap.JobFileEntry;
import io.gantry.cli.soap.JobManagement;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code gantry files ID}: what is in a job's directory, for {@code gantry get}. */
@Command(
    name = "files",
    mixinStandardHelpOptions = true,
    description = {
      "List the files of a job's directory with their sizes: what its program wrote and what was"
          + " staged in, each by the path 'gantry get ID PATH' takes.",
      "Links and other special files are listed as such; the server never follows or reads them."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry files 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5",
      "  gantry get 5f0c3a9e2b7d4e61a8c9f0e1d2c3b4a5 results/summary.txt",
      ExitCodes.HELP
    })
final class FilesCommand extends OneJobCommand<List<JobFileEntry>> {
  /** The server's cap on one listing (JobFileReader.MAX_ENTRIES). */
  static final int MAX_ENTRIES = 10_000;

  @Override
  List<JobFileEntry> ask(JobManagement server, String jobId) throws Exception {
    return server.listJobFiles(jobId);
  }

  @Override
  int print(PrintWriter out, List<JobFileEntry> files) {
    if (gantry.json) {
      List<Map<String, Object>> json = new ArrayList<>();
      for (JobFileEntry f : files) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("path", f.getPath());
        one.put("size", f.getSize());
        one.put("type", f.getType());
        json.add(one);
      }
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("jobId", jobId);
      document.put("files", json);
      JsonOutput.print(out, document);
      return ExitCodes.OK;
    }
    if (gantry.quiet) {
      files.forEach(f -> out.println(f.getPath()));
    } else if (files.isEmpty()) {
      out.println("no files in the job directory of " + jobId);
    } else {
      TextTable table = new TextTable("SIZE", "TYPE", "PATH");
      for (JobFileEntry f : files) {
        table.row("file".equals(f.getType()) ? f.getSize() : "-", f.getType(), f.getPath());
      }
      table.print(out);
      if (files.size() >= MAX_ENTRIES) {
        out.println("(the first " + MAX_ENTRIES + " entries only)");
      }
    }
    out.flush();
    return ExitCodes.OK;
  }
}
