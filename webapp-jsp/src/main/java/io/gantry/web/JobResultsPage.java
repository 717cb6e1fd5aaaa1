package io.gantry.web;

import io.gantry.jsdl.JobProgress;
import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.JobNotFoundFault;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The results page of a VaR job: the VaR and expected shortfall table, the P&L histogram with the
 * VaR levels marked, the largest contributions. Results that are not there (yet) or cannot be read
 * are a message on the page, never an error page.
 */
final class JobResultsPage {
  static final int TOP_CONTRIBUTIONS = 10;

  private JobResultsPage() {}

  static void show(
      HttpServletRequest request,
      HttpServletResponse response,
      JobManagementService jobs,
      String id)
      throws JobNotFoundFault, ServletException, IOException {
    JobRow job = JobRow.of(jobs.getJobStatus(id));
    request.setAttribute("job", job);
    liveResults(request, jobs, id);
    if (!hasResults(jobs, id)) {
      request.setAttribute(
          "problem",
          job.finalState()
              ? "This job wrote no VaR results ("
                  + VarResults.SUMMARY
                  + " or "
                  + VarResults.SUMMARY
                  + ".gz)."
              : "No VaR results yet: the job is " + job.state() + ".");
    } else {
      try {
        VarResults results = VarResults.read(name -> resultFile(jobs, id, name));
        request.setAttribute("levels", results.levels().stream().map(VarLevelRow::of).toList());
        request.setAttribute("plot", PnlHistogramSvg.render(results.bins(), results.levels()));
        request.setAttribute(
            "contributions",
            results.top(TOP_CONTRIBUTIONS).stream().map(ContributionRow::of).toList());
      } catch (VarResults.Unreadable e) {
        request.setAttribute("problem", "The VaR results cannot be shown: " + e.getMessage() + ".");
      }
    }
    Pages.render(
        request, response, "job-results", "Results of " + (job.name().isEmpty() ? id : job.name()));
  }

  /** The most figures of the last checkpoint the page lists (the plot shows the first). */
  static final int PROGRESS_ROWS = 40;

  /**
   * The job's progress file (any program's, docs/live-results.md), if it has one: how much is done,
   * the headline estimate converging with its error band, the last checkpoint's figures.
   */
  private static void liveResults(HttpServletRequest request, JobManagementService jobs, String id)
      throws IOException {
    java.util.Optional<java.io.InputStream> file = resultFile(jobs, id, JobProgress.FILE);
    if (file.isEmpty()) {
      return;
    }
    JobProgress progress;
    try (java.io.InputStream in = file.get()) {
      byte[] bytes = in.readNBytes(JobProgress.MAX_BYTES + 1);
      if (bytes.length > JobProgress.MAX_BYTES) {
        request.setAttribute(
            "progressProblem",
            JobProgress.FILE + " is larger than " + JobProgress.MAX_BYTES + " bytes");
        return;
      }
      progress =
          JobProgress.parse(
              new java.io.StringReader(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)),
              JobProgress.FILE);
    } catch (JobProgress.FormatException e) {
      request.setAttribute("progressProblem", e.getMessage());
      return;
    }
    if (progress.latest().isEmpty()) {
      return;
    }
    JobProgress.Checkpoint last = progress.latest().get();
    String done = String.format(java.util.Locale.ENGLISH, "%,d", last.done());
    if (last.total().isPresent()) {
      done += String.format(java.util.Locale.ENGLISH, " of %,d", last.total().getAsLong());
    }
    request.setAttribute("progressDone", done + (last.unit().isEmpty() ? "" : " " + last.unit()));
    request.setAttribute("progressPlot", ProgressSvg.render(progress));
    request.setAttribute("progressHeadline", progress.headline().orElse(""));
    request.setAttribute(
        "progressRows", last.figures().stream().limit(PROGRESS_ROWS).map(ProgressRow::of).toList());
  }

  /** Whether the job wrote a VaR summary, compressed or plain. */
  static boolean hasResults(JobManagementService jobs, String id) throws JobNotFoundFault {
    for (String name : VarResults.namesOf(VarResults.SUMMARY)) {
      if (jobs.hasJobFile(id, name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * One of the job's result files, opened by the server without following links: a job that
   * replaced it with a link to one of the server's files gets "not there", never the file.
   */
  private static java.util.Optional<java.io.InputStream> resultFile(
      JobManagementService jobs, String id, String name) {
    try {
      return jobs.openJobFile(id, name);
    } catch (JobNotFoundFault e) {
      return java.util.Optional.empty(); // removed since the page found it
    }
  }
}
