package io.gantry.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;

/**
 * A {@link RiskTable} as a CSV download: RFC 4180 (comma, CRLF, fields with a comma, quote or line
 * break quoted, quotes doubled; Apache Commons CSV's {@code RFC4180} format), UTF-8, a header row,
 * and {@code Content-Disposition: attachment} with a file name made of safe characters only.
 *
 * <p>CSV injection: a spreadsheet runs a cell that starts with {@code = + - @}, a tab or a carriage
 * return as a formula. As OWASP's "CSV Injection" page advises, such a cell is prefixed with a
 * single quote, so that it is shown as text. Plain numbers the tables themselves write ({@code
 * -1,234.50}, {@code -3.1%}) are left as they are: they cannot be formulas, and a quote would turn
 * every loss into text.
 */
final class RiskCsv {
  private static final Pattern PLAIN_NUMBER = Pattern.compile("-?[0-9][0-9,]*(\\.[0-9]+)?%?");
  private static final Pattern UNSAFE_FILE_CHARACTER = Pattern.compile("[^A-Za-z0-9._-]");

  private RiskCsv() {}

  /** Answers with {@code table} as an attachment named {@code name}.csv (made safe). */
  static void send(HttpServletResponse response, RiskTable table, String name) throws IOException {
    String file = UNSAFE_FILE_CHARACTER.matcher(name).replaceAll("_");
    response.setContentType("text/csv; charset=UTF-8");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.setHeader("Content-Disposition", "attachment; filename=\"" + file + ".csv\"");
    write(response.getWriter(), table);
  }

  static void write(Writer out, RiskTable table) throws IOException {
    // RFC 4180 ends every record with CRLF
    out.write(
        CSVFormat.RFC4180.format(table.columns().stream().map(c -> safe(c.header())).toArray()));
    out.write("\r\n");
    for (List<RiskTable.Cell> row : table.rows()) {
      List<String> cells = new ArrayList<>(row.size());
      for (RiskTable.Cell cell : row) {
        cells.add(safe(cell.text()));
      }
      out.write(CSVFormat.RFC4180.format(cells.toArray()));
      out.write("\r\n");
    }
    out.flush();
  }

  /** The cell, prefixed with ' when a spreadsheet would take it for a formula. */
  static String safe(String text) {
    if (text.isEmpty() || PLAIN_NUMBER.matcher(text).matches()) {
      return text;
    }
    char first = text.charAt(0);
    return first == '='
            || first == '+'
            || first == '-'
            || first == '@'
            || first == '\t'
            || first == '\r'
        ? "'" + text
        : text;
  }
}
