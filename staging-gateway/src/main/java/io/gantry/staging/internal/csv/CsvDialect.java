package io.gantry.staging.internal.csv;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.QuoteMode;

/**
 * The one CSV dialect of staged files: RFC 4180 fields and quoting, UTF-8, a header row, lines
 * ended by LF (as PostgreSQL's {@code COPY ... CSV} and Unix tools write; CRLF is read too).
 *
 * <p>NULL and the empty string differ, the way PostgreSQL's CSV format tells them apart: an empty
 * unquoted field is SQL NULL, a quoted empty field {@code ""} is the empty string. Commons CSV
 * reads that distinction when the quote mode is {@code ALL_NON_NULL} and no null string is set;
 * writing uses minimal quoting plus an explicitly quoted empty string.
 */
public final class CsvDialect {
  private CsvDialect() {}

  /** Writes fields, quoting only where RFC 4180 requires. */
  public static final CSVFormat WRITE_MINIMAL =
      CSVFormat.RFC4180.builder().setRecordSeparator("\n").setQuoteMode(QuoteMode.MINIMAL).get();

  /** Writes the empty string as {@code ""}. */
  public static final CSVFormat WRITE_QUOTED =
      CSVFormat.RFC4180.builder().setRecordSeparator("\n").setQuoteMode(QuoteMode.ALL).get();

  /** Reads records; an unquoted empty field comes back as null. */
  public static final CSVFormat READ =
      CSVFormat.RFC4180
          .builder()
          .setQuoteMode(QuoteMode.ALL_NON_NULL)
          .setIgnoreEmptyLines(false)
          .get();
}
