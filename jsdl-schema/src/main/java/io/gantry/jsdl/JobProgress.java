package io.gantry.jsdl;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A running job's progress file, {@value #FILE} in its job directory (docs/live-results.md): how
 * much of its work is done and, at each checkpoint, the estimates it has so far with their standard
 * errors. Any program may publish one; mcvar does with {@code --progress}. The server and the CLI
 * read it while the job runs and show it the same way for every program.
 *
 * <p>CSV (RFC 4180) with the header {@value #HEADER}; rows in checkpoint order ({@code done} never
 * decreases), the rows of equal {@code done} one checkpoint. {@code total} and {@code stderr} may
 * be empty; a row with an empty {@code figure} reports progress only.
 */
public record JobProgress(List<Checkpoint> checkpoints) {
  /** The file's name in the job directory. */
  public static final String FILE = "progress.csv";

  /** The header row, exactly. */
  public static final String HEADER = "done,total,unit,figure,value,stderr";

  /** The most the server or the CLI reads of it; a larger file is refused as not progress. */
  public static final int MAX_BYTES = 4 << 20;

  /** One estimate at one checkpoint. */
  public record Figure(String name, double value, OptionalDouble stderr) {}

  /** How much was done, of how much, and the figures at that point. */
  public record Checkpoint(long done, OptionalLong total, String unit, List<Figure> figures) {
    /** The figure called {@code name} at this checkpoint, if any. */
    public Optional<Figure> figure(String name) {
      return figures.stream().filter(f -> f.name().equals(name)).findFirst();
    }
  }

  /** A progress file that does not follow the format; the message names the line. */
  public static final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    FormatException(String message) {
      super(message);
    }
  }

  public JobProgress {
    checkpoints = List.copyOf(checkpoints);
  }

  /** The last checkpoint, if there is one. */
  public Optional<Checkpoint> latest() {
    return checkpoints.isEmpty()
        ? Optional.empty()
        : Optional.of(checkpoints.get(checkpoints.size() - 1));
  }

  /** The headline: the first figure of the last checkpoint (the one a page plots). */
  public Optional<String> headline() {
    return latest().flatMap(c -> c.figures().stream().findFirst()).map(Figure::name);
  }

  /** The headline's estimate at every checkpoint that has it: done to its figure. */
  public Map<Long, Figure> series(String figure) {
    Map<Long, Figure> series = new LinkedHashMap<>();
    for (Checkpoint c : checkpoints) {
      c.figure(figure).ifPresent(f -> series.put(c.done(), f));
    }
    return series;
  }

  /** Reads a progress file; {@code name} is how messages call it. */
  public static JobProgress parse(Reader in, String name) throws IOException, FormatException {
    CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get();
    List<Checkpoint> checkpoints = new ArrayList<>();
    try (CSVParser parser = CSVParser.parse(in, format)) {
      if (!String.join(",", parser.getHeaderNames()).equals(HEADER)) {
        throw new FormatException(name + ":1: the header is not " + HEADER);
      }
      List<Figure> figures = new ArrayList<>();
      long done = -1;
      OptionalLong total = OptionalLong.empty();
      String unit = "";
      for (CSVRecord row : parser) {
        String where = name + ":" + (row.getRecordNumber() + 1) + ": ";
        if (row.size() != 6) {
          throw new FormatException(where + row.size() + " fields, not 6");
        }
        long rowDone = count(row.get(0), "done", where);
        if (rowDone < done) {
          throw new FormatException(
              where + "done " + rowDone + " is below the " + done + " before");
        }
        if (rowDone != done && done >= 0) {
          checkpoints.add(new Checkpoint(done, total, unit, figures));
          figures = new ArrayList<>();
        }
        done = rowDone;
        total =
            row.get(1).isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(count(row.get(1), "total", where));
        unit = row.get(2);
        if (!row.get(3).isEmpty()) {
          figures.add(
              new Figure(
                  row.get(3),
                  number(row.get(4), "value", where),
                  row.get(5).isEmpty()
                      ? OptionalDouble.empty()
                      : OptionalDouble.of(number(row.get(5), "stderr", where))));
        }
      }
      if (done >= 0) {
        checkpoints.add(new Checkpoint(done, total, unit, figures));
      }
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      throw new FormatException(name + ": not CSV: " + e.getMessage());
    }
    return new JobProgress(checkpoints);
  }

  private static long count(String text, String column, String where) throws FormatException {
    try {
      long v = Long.parseLong(text);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FormatException(where + column + " '" + text + "' is not a whole number >= 0");
  }

  private static double number(String text, String column, String where) throws FormatException {
    try {
      double v = Double.parseDouble(text);
      if (Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FormatException(where + column + " '" + text + "' is not a finite number");
  }
}
