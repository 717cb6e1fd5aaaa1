package io.gantry.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * What the sample VaR program (mcvar) wrote into its job's {@code results/} directory, read from
 * its CSV files, compressed ({@code .csv.gz}, blocked gzip: several members, which {@link
 * GZIPInputStream} reads on) or plain ({@code .csv}), told apart by their first bytes. A file that
 * is missing, not gzip, or has a missing column or a bad number gives an {@link Unreadable} naming
 * the file and the line, for the page to show.
 */
record VarResults(List<Level> levels, List<Bin> bins, List<Contribution> contributions) {
  static final String SUMMARY = "results/var_summary.csv";
  static final String DISTRIBUTION = "results/pnl_distribution.csv";
  static final String CONTRIBUTIONS = "results/contributions.csv";

  /**
   * The names a result may have in the job directory: compressed first (mcvar's default), then
   * plain.
   */
  static List<String> namesOf(String result) {
    return List.of(result + ".gz", result);
  }

  /** VaR and expected shortfall (positive loss amounts) at one confidence level. */
  record Level(
      BigDecimal confidence,
      double var,
      double expectedShortfall,
      double mean,
      double stddev,
      long scenarios) {
    /** "99%", "97.5%". */
    String percent() {
      return confidence.movePointRight(2).stripTrailingZeros().toPlainString() + "%";
    }
  }

  /** One bar of the P&L histogram: scenarios with lower &lt;= P&L &lt; upper. */
  record Bin(double lower, double upper, long count) {}

  record Contribution(String positionId, BigDecimal confidence, double contribution) {}

  static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  /** Opens one of the job's result files by its name in the job directory; empty when not there. */
  @FunctionalInterface
  interface ResultFiles {
    Optional<InputStream> open(String name) throws IOException;
  }

  /**
   * Reads the summary and the distribution (both required) and the contributions (optional: empty
   * when the file is not there). Levels come by rising confidence, bins by P&L.
   */
  static VarResults read(ResultFiles files) throws Unreadable {
    List<Level> levels =
        new ArrayList<>(
            rows(
                files,
                SUMMARY,
                r ->
                    !isTop(r)
                        ? null
                        : new Level(
                            decimal(r, "confidence"),
                            number(r, "var"),
                            number(r, "expected_shortfall"),
                            number(r, "pnl_mean"),
                            number(r, "pnl_stddev"),
                            (long) number(r, "scenarios"))));
    levels.sort(Comparator.comparing(Level::confidence));
    List<Bin> bins =
        new ArrayList<>(
            rows(
                files,
                DISTRIBUTION,
                r ->
                    !isTop(r)
                        ? null
                        : new Bin(
                            number(r, "lower"), number(r, "upper"), (long) number(r, "count"))));
    bins.sort(Comparator.comparingDouble(Bin::lower));
    List<Contribution> parts =
        rows(
            files,
            CONTRIBUTIONS,
            r ->
                !isTop(r)
                    ? null
                    : new Contribution(
                        text(r, "position_id"),
                        decimal(r, "confidence"),
                        number(
                            r, r.isMapped("contribution") ? "contribution" : "var_contribution")),
            List.of());
    if (levels.isEmpty()) {
      throw new Unreadable(SUMMARY + "(.gz) has no rows");
    }
    return new VarResults(List.copyOf(levels), List.copyOf(bins), parts);
  }

  /** The {@code n} largest contributions at the highest confidence level. */
  List<Contribution> top(int n) {
    BigDecimal highest = levels.get(levels.size() - 1).confidence();
    return contributions.stream()
        .filter(c -> c.confidence().compareTo(highest) == 0)
        .sorted(Comparator.comparingDouble(Contribution::contribution).reversed())
        .limit(n)
        .toList();
  }

  private static <T> List<T> rows(ResultFiles files, String name, Function<CSVRecord, T> row)
      throws Unreadable {
    return rows(files, name, row, null);
  }

  /**
   * The file's rows (a row the function maps to null is left out); {@code absent} when it is not
   * there, or null when it must be.
   */
  private static <T> List<T> rows(
      ResultFiles files, String name, Function<CSVRecord, T> row, List<T> absent)
      throws Unreadable {
    Optional<InputStream> file = Optional.empty();
    String result = name;
    for (String candidate : namesOf(result)) {
      try {
        file = files.open(candidate);
      } catch (IOException e) {
        throw new Unreadable(candidate + " cannot be read: " + e.getMessage());
      }
      if (file.isPresent()) {
        name = candidate;
        break;
      }
    }
    if (file.isEmpty()) {
      if (absent != null) {
        return absent;
      }
      throw new Unreadable(result + "(.gz) is not there");
    }
    CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
    try (InputStream raw = file.get();
        Reader in = new InputStreamReader(decompressed(raw), StandardCharsets.UTF_8);
        CSVParser csv = CSVParser.parse(in, format)) {
      List<T> out = new ArrayList<>();
      for (CSVRecord r : csv) {
        try {
          T value = row.apply(r);
          if (value != null) {
            out.add(value);
          }
        } catch (IllegalArgumentException | IllegalStateException e) {
          throw new Unreadable(name + " line " + (r.getRecordNumber() + 1) + ": " + e.getMessage());
        }
      }
      return out;
    } catch (IOException | java.io.UncheckedIOException | IllegalStateException e) {
      throw new Unreadable(name + " cannot be read: " + e.getMessage());
    }
  }

  /** The file's text: inflated when it starts with gzip's magic bytes, as it is otherwise. */
  private static InputStream decompressed(InputStream raw) throws IOException {
    java.io.BufferedInputStream in = new java.io.BufferedInputStream(raw);
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    return first == 0x1f && second == 0x8b ? new GZIPInputStream(in) : in;
  }

  /**
   * Whether a row is the top node's: mcvar 2 reports every node of a hierarchy (a {@code node}
   * column with its path, the top one without a '/'); the page shows the top, as for a flat book
   * (mcvar 1's files have no node column).
   */
  private static boolean isTop(CSVRecord r) {
    return !r.isMapped("node") || !text(r, "node").contains("/");
  }

  private static String text(CSVRecord r, String column) {
    if (!r.isMapped(column) || !r.isSet(column)) {
      throw new IllegalArgumentException("no column " + column);
    }
    return r.get(column).trim();
  }

  private static double number(CSVRecord r, String column) {
    String value = text(r, column);
    try {
      double d = Double.parseDouble(value);
      if (!Double.isFinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(column + " is not a number: " + abbreviated(value));
    }
  }

  private static BigDecimal decimal(CSVRecord r, String column) {
    String value = text(r, column);
    try {
      return new BigDecimal(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(column + " is not a number: " + abbreviated(value));
    }
  }

  private static String abbreviated(String value) {
    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
  }
}
