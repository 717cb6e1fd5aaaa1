package io.gantry.cli;

import io.gantry.cli.soap.JobList;
import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry list}: the caller's jobs as a table, newest first. A job that failed shows why (its
 * first {@value #REASON_WIDTH} characters; {@code gantry status ID} shows all): a FAILED job whose
 * program exited 0 failed in staging, which EXIT alone would hide. A QUEUED job the server keeps
 * back shows in the same column what it waits for ({@code Dependency(after:ID)}, {@code
 * JobHeldUser}), as Slurm's squeue does. A job filled from a template shows the values it was
 * filled with (PARAMETERS): runs of one template share a name, and their business date and node
 * tell them apart.
 */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "List jobs, newest first: your own, or with --all every user's (administrators only; "
          + "others get 'access denied', exit 3).",
      "--state is applied by the server; --name and --since by gantry over the listing (newest"
          + " first, so --since stops at the first older job). --watch redraws the list in place"
          + " every --interval until Ctrl-C, like watch squeue; without a terminal it prints the"
          + " list again each time, after a line with the time."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry list",
      "  gantry list --state RUNNING --state QUEUED",
      "  gantry list --quiet --state FAILED      # ids only",
      "  gantry list --name 'var-*' --since 2d --state FAILED,KILLED",
      "  gantry list --watch --state RUNNING,QUEUED",
      ExitCodes.HELP
    })
final class ListCommand implements Callable<Integer> {
  static final int REASON_WIDTH = 80;

  /** The template values' column (a business date, a node and a scenario count fit). */
  static final int PARAMETERS_WIDTH = 60;

  @ParentCommand Invocation gantry;
  @Spec CommandSpec spec;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      split = ",",
      description =
          "only jobs in this state (repeat or separate with commas): ${COMPLETION-CANDIDATES}")
  List<JobState> states = new ArrayList<>();

  @Option(names = "--all", description = "every user's jobs (administrators only)")
  boolean allUsers;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "at most this many jobs (default ${DEFAULT-VALUE})")
  int limit;

  @Option(
      names = "--name",
      paramLabel = "PATTERN",
      description = "only jobs whose name matches this glob (* and ?), e.g. 'var-*'")
  String name;

  @Option(
      names = "--since",
      paramLabel = "WHEN",
      converter = JobFilter.SinceConverter.class,
      description =
          "only jobs submitted since then: a time ago (90m, 2h, 7d, PT30M) or a date"
              + " (2026-11-20, local midnight) or date-time (2026-11-20T18:30:00Z)")
  Instant since;

  @Option(names = "--watch", description = "show the list again every --interval, until Ctrl-C")
  boolean watch;

  @Option(
      names = "--interval",
      paramLabel = "D",
      defaultValue = "2s",
      converter = DurationConverter.class,
      description = "with --watch, how often (default ${DEFAULT-VALUE})")
  Duration interval;

  @Option(
      names = "--count",
      paramLabel = "N",
      description = "with --watch, stop after N showings (as top -n) instead of at Ctrl-C")
  Integer count;

  /** A page of the server's listing when gantry filters: the most listJobs gives at once. */
  static final int PAGE = 1000;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    ServerConnection server = gantry.connect();
    JobFilter filter =
        name == null && since == null
            ? JobFilter.NONE
            : new JobFilter(name == null ? null : JobFilter.glob(name), since);
    if (!watch) {
      show(out, fetch(server, filter), false);
      return ExitCodes.OK;
    }
    boolean terminal = gantry.onTerminal();
    for (int shown = 0; count == null || shown < count; shown++) {
      if (shown > 0) {
        Thread.sleep(interval.toMillis());
      }
      JobList list = fetch(server, filter);
      if (terminal) {
        out.print("\033[H\033[2J"); // home, clear screen: redrawn in place as watch(1) does
      }
      out.println("every " + interval.toSeconds() + "s: gantry list    " + Instant.now());
      show(out, list, true);
      if (!terminal) {
        out.println();
      }
      out.flush();
    }
    return ExitCodes.OK;
  }

  /**
   * The jobs to show: one listJobs call without --name/--since; with them, pages of the newest jobs
   * until {@code limit} match or a job is older than --since.
   */
  private JobList fetch(ServerConnection server, JobFilter filter) {
    if (filter.name() == null && filter.since() == null) {
      return server.call(s -> s.listJobs(states, 0, limit, allUsers));
    }
    JobList matching = new JobList();
    int offset = 0;
    while (true) {
      int from = offset;
      JobList page = server.call(s -> s.listJobs(states, from, PAGE, allUsers));
      for (JobStatus job : page.getJob()) {
        if (filter.olderThanWanted(job)) {
          matching.setTotal(matching.getJob().size());
          return matching;
        }
        if (filter.matches(job)) {
          matching.getJob().add(job);
          if (matching.getJob().size() == limit) {
            // more may match: say so as an unfiltered listing does
            matching.setTotal(limit + 1L);
            return matching;
          }
        }
      }
      offset += page.getJob().size();
      if (page.getJob().isEmpty() || offset >= page.getTotal()) {
        matching.setTotal(matching.getJob().size());
        return matching;
      }
    }
  }

  private void show(PrintWriter out, JobList list, boolean watching) {
    if (gantry.json) {
      JsonOutput.print(out, JsonOutput.list(list));
    } else if (gantry.quiet) {
      list.getJob().forEach(j -> out.println(j.getJobId()));
    } else if (list.getJob().isEmpty()) {
      out.println("no jobs");
    } else {
      table(list.getJob()).print(out);
      if (list.getTotal() > list.getJob().size()) {
        out.println(
            list.getTotal() == limit + 1L && (name != null || since != null)
                ? "(the first " + limit + " matching jobs; --limit shows more)"
                : "("
                    + list.getJob().size()
                    + " of "
                    + list.getTotal()
                    + " jobs; --limit shows more)");
      }
    }
    if (!watching) {
      out.flush();
    }
  }

  private TextTable table(List<JobStatus> jobs) {
    TextTable table =
        new TextTable(
            "JOB ID",
            "NAME",
            "OWNER",
            "STATE",
            "PARAMETERS",
            "SUBMITTED",
            "FINISHED",
            "EXIT",
            "REASON");
    for (JobStatus j : jobs) {
      table.row(
          j.getJobId(),
          j.getName(),
          j.getOwner(),
          j.getState().value(),
          values(j),
          Times.text(j.getSubmitted()),
          Times.text(j.getFinished()),
          j.getExitCode(),
          brief(j.getReason() != null ? j.getReason() : j.getFailureReason()));
    }
    return table;
  }

  /**
   * The template values a job was filled with (its business date, node, ...), which tell apart runs
   * of one template under one name: {@code name=value} by spaces, cut to PARAMETERS_WIDTH
   * characters; null (shown as "-") for a job without values.
   */
  static String values(JobStatus job) {
    if (job.getParameter().isEmpty()) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    job.getParameter()
        .forEach(
            p ->
                text.append(text.length() == 0 ? "" : " ")
                    .append(p.getName())
                    .append('=')
                    .append(p.getValue().replaceAll("\\s+", " ")));
    return text.length() <= PARAMETERS_WIDTH
        ? text.toString()
        : text.substring(0, PARAMETERS_WIDTH - 3) + "...";
  }

  /** The reason on one line, cut to REASON_WIDTH characters; null (shown as "-") if none. */
  static String brief(String reason) {
    if (reason == null || reason.isBlank()) {
      return null;
    }
    String line = reason.strip().replaceAll("\\s+", " ");
    return line.length() <= REASON_WIDTH ? line : line.substring(0, REASON_WIDTH - 3) + "...";
  }
}
