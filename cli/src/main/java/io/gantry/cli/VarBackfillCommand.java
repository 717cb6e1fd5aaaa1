package io.gantry.cli;

import io.gantry.cli.soap.InvalidJobFault;
import io.gantry.cli.soap.JobState;
import io.gantry.cli.soap.JobStatus;
import io.gantry.jsdl.JsdlParser;
import io.gantry.jsdl.ParseResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code gantry var backfill FILE --from D1 --to D2}: a VaR history made by real jobs, one
 * submission of a job template a business day (Monday to Friday, the demo market's calendar),
 * oldest first, then a wait for all of them. The template takes the date as its {@code
 * business_date} parameter (jsdl-schema/examples/var-history.jsdl).
 */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Submit a job template once for every business day (Monday to Friday) from --from to --to,"
          + " with the day as its business_date parameter, oldest first, and wait until all have"
          + " ended: one line a night (date, job id, final state). The exit code is 0 when every"
          + " job SUCCEEDED, 1 otherwise."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  gantry var backfill var-history.jsdl --from 2022-09-01 --to 2023-08-31",
      "  gantry var backfill var-history.jsdl --from 2023-03-01 --to 2023-03-31"
          + " --set scenarios=500 --set portfolio=BANK/GANTRY-EU",
      ExitCodes.HELP
    })
final class VarBackfillCommand implements Callable<Integer> {
  /** The template parameter each night's date is given as. */
  static final String DATE_PARAMETER = "business_date";

  /** More nights than a backtest window of several years; a bound on one command's submissions. */
  static final int MAX_NIGHTS = 2000;

  @ParentCommand VarCommand var;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "the job template, with a business_date parameter")
  Path file;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "the first business date")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "the last business date")
  String to;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description = "a value for another parameter of the template, the same every night")
  List<String> sets;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "give up waiting for a night's job after this long (e.g. 15m); the jobs go on")
  Duration timeout;

  @Override
  public Integer call() {
    Invocation gantry = var.gantry;
    List<LocalDate> nights = nights(date("--from", from), date("--to", to));
    Map<String, String> values = ParameterValues.of(sets);
    if (values.containsKey(DATE_PARAMETER)) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO,
          "--set " + DATE_PARAMETER + ": each night's date is the business date; leave it out");
    }
    byte[] xml = read();
    for (LocalDate night : List.of(nights.get(0), nights.get(nights.size() - 1))) {
      ParseResult parsed = new JsdlParser().parse(xml, withDate(values, night));
      if (!parsed.isValid()) {
        throw new CommandFailure(
            ExitCodes.NEGATIVE,
            file + ": INVALID for " + night + ": " + parsed.report().problems());
      }
    }
    ServerConnection server = gantry.connect();
    List<String> jobs = new ArrayList<>();
    for (LocalDate night : nights) {
      Map<String, String> nightValues = withDate(values, night);
      jobs.add(
          server.call(
              s -> {
                try {
                  return s.submitJob(ParameterValues.document(xml, nightValues));
                } catch (InvalidJobFault e) {
                  throw new CommandFailure(
                      ExitCodes.NEGATIVE,
                      file
                          + ": the server refused the job for "
                          + night
                          + " ("
                          + jobs.size()
                          + " nights submitted before it): "
                          + e.getMessage());
                }
              }));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!gantry.quiet && !gantry.json) {
      out.println(
          "submitted "
              + jobs.size()
              + " jobs, "
              + nights.get(0)
              + " to "
              + nights.get(nights.size() - 1));
      out.flush();
    }
    // the server starts them in submission order, so waiting for each in turn polls one at a time
    JobWaiter waiter = new JobWaiter(server, null, null);
    List<Map<String, Object>> json = new ArrayList<>();
    int failed = 0;
    for (int i = 0; i < jobs.size(); i++) {
      JobStatus last = waiter.await(jobs.get(i), timeout);
      failed += last.getState() == JobState.SUCCEEDED ? 0 : 1;
      if (gantry.json) {
        Map<String, Object> night = new LinkedHashMap<>();
        night.put("businessDate", nights.get(i).toString());
        night.put("jobId", jobs.get(i));
        night.put("state", last.getState().value());
        json.add(night);
      } else if (gantry.quiet) {
        out.println(jobs.get(i));
      } else {
        out.println(nights.get(i) + "  " + StatusLine.of(last, gantry.colors()));
        out.flush();
      }
    }
    if (gantry.json) {
      JsonOutput.print(out, Map.of("nights", json));
    } else if (!gantry.quiet) {
      out.println((jobs.size() - failed) + " of " + jobs.size() + " nights SUCCEEDED");
    }
    out.flush();
    return failed == 0 ? ExitCodes.OK : ExitCodes.NEGATIVE;
  }

  /** Monday to Friday from {@code first} to {@code last}, both included. */
  static List<LocalDate> nights(LocalDate first, LocalDate last) {
    if (last.isBefore(first)) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "--to " + last + " is before --from " + first);
    }
    List<LocalDate> nights = new ArrayList<>();
    for (LocalDate d = first; !d.isAfter(last); d = d.plusDays(1)) {
      if (d.getDayOfWeek() != DayOfWeek.SATURDAY && d.getDayOfWeek() != DayOfWeek.SUNDAY) {
        nights.add(d);
        if (nights.size() > MAX_NIGHTS) {
          throw new CommandFailure(
              ExitCodes.USAGE_OR_IO,
              "--from " + first + " --to " + last + ": more than " + MAX_NIGHTS + " business days");
        }
      }
    }
    if (nights.isEmpty()) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, "--from " + first + " --to " + last + ": no business day");
    }
    return nights;
  }

  private static LocalDate date(String option, String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      throw new CommandFailure(
          ExitCodes.USAGE_OR_IO, option + " " + text + ": not a date (YYYY-MM-DD)");
    }
  }

  private static Map<String, String> withDate(Map<String, String> values, LocalDate night) {
    Map<String, String> all = new LinkedHashMap<>(values);
    all.put(DATE_PARAMETER, night.toString());
    return all;
  }

  private byte[] read() {
    Path path = var.gantry.file(file);
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new CommandFailure(ExitCodes.USAGE_OR_IO, file + ": cannot read: " + e.getMessage());
    }
  }
}
