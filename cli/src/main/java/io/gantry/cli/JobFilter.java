package io.gantry.cli;

import io.gantry.cli.soap.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code gantry list --name PATTERN --since WHEN}: which jobs of a listing to show. The name
 * pattern is a shell glob ({@code *} any text, {@code ?} one character), matched against the whole
 * job name as squeue --name matches; {@code --since} is a time ago ({@code 2h}, {@code 7d}, {@code
 * PT30M}) or a date or date-time ({@code 2026-11-20}, local midnight; {@code
 * 2026-11-20T18:30:00Z}).
 */
record JobFilter(Pattern name, Instant since) {
  static final JobFilter NONE = new JobFilter(null, null);

  boolean matches(JobStatus job) {
    if (name != null && (job.getName() == null || !name.matcher(job.getName()).matches())) {
      return false;
    }
    return since == null || !submitted(job).isBefore(since);
  }

  /** Listings come newest first: once a job is older than --since, every later one is too. */
  boolean olderThanWanted(JobStatus job) {
    return since != null && submitted(job).isBefore(since);
  }

  private static Instant submitted(JobStatus job) {
    Instant submitted = Times.instant(job.getSubmitted());
    return submitted == null ? Instant.EPOCH : submitted;
  }

  /** A shell glob as a regular expression over the whole name. */
  static Pattern glob(String glob) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  /** --since: a duration back from now, or a date or date-time. */
  static final class SinceConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      String v = value.strip();
      try {
        return OffsetDateTime.parse(v).toInstant();
      } catch (DateTimeParseException notDateTime) {
        try {
          return LocalDate.parse(v).atStartOfDay(ZoneId.systemDefault()).toInstant();
        } catch (DateTimeParseException notDate) {
          try {
            Duration ago = new DurationConverter().convert(v);
            return Instant.now().minus(ago);
          } catch (TypeConversionException notDuration) {
            throw new TypeConversionException(
                "'"
                    + value
                    + "' is neither a time ago (90m, 2h, 7d, PT30M) nor a date (2026-11-20) or"
                    + " date-time (2026-11-20T18:30:00Z)");
          }
        }
      }
    }
  }
}
