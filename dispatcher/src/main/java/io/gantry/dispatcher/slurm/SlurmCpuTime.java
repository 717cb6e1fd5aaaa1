package io.gantry.dispatcher.slurm;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's CPU time from {@code sacct -n -P -j ID -o jobid,totalcpu}: the job's own line (steps such
 * as "42.batch" are skipped; the job's line sums them). TotalCPU is user plus system time, written
 * {@code [DD-[HH:]]MM:SS[.mmm]} (sacct(1), "TotalCPU" and the time format of its "Elapsed" field).
 * Empty when Slurm keeps no accounting (sacct fails or prints nothing) or the field is blank.
 */
final class SlurmCpuTime {
  private static final Pattern TIME =
      Pattern.compile("(?:(\\d+)-)?(?:(\\d+):)?(\\d+):(\\d+)(?:\\.(\\d{1,6}))?");

  private SlurmCpuTime() {}

  static Optional<Duration> fromSacct(String output, String slurmId) {
    for (String line : output.split("\n")) {
      String[] fields = line.strip().split("\\|", -1);
      if (fields.length >= 2 && fields[0].equals(slurmId)) {
        return parse(fields[1].strip());
      }
    }
    return Optional.empty();
  }

  static Optional<Duration> parse(String value) {
    Matcher m = TIME.matcher(value);
    if (!m.matches()) {
      return Optional.empty();
    }
    long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
    long hours = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
    long millis = 0;
    if (m.group(5) != null) {
      String fraction = (m.group(5) + "000").substring(0, 3);
      millis = Long.parseLong(fraction);
    }
    return Optional.of(
        Duration.ofDays(days)
            .plusHours(hours)
            .plusMinutes(Long.parseLong(m.group(3)))
            .plusSeconds(Long.parseLong(m.group(4)))
            .plusMillis(millis));
  }
}
