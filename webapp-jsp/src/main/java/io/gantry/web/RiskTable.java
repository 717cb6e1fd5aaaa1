package io.gantry.web;

import java.util.List;
import java.util.Locale;

/**
 * A table of the risk dashboard as both the page and its CSV download show it: columns, then rows
 * of cells. Every table of the risk pages is one of these, so a page renders them with one JSP
 * fragment ({@code risk-table.jspf}) and downloads them with one writer ({@link RiskCsv}); a new
 * column (the limit usage a limits branch adds) is one more {@link Column} and one more cell per
 * row where the table is built.
 *
 * @param id the table's element id, also its name in the download link ({@code table=ID})
 * @param csvHref the link that downloads this table as CSV (set by the servlet)
 */
public record RiskTable(
    String id, String caption, List<Column> columns, List<List<Cell>> rows, String csvHref) {

  /** A column: its header and whether its cells are numbers (right-aligned). */
  public record Column(String header, boolean numeric) {}

  /**
   * One cell. {@code text} is what the CSV holds and the page shows, escaped; {@code link} makes it
   * a link on the page; {@code css} a class (a traffic light's zone); {@code svg} a small drawing
   * made on the server ({@link ErrorBarSvg}) shown before the text, never taken from input.
   */
  public record Cell(String text, String link, String css, String svg) {
    static Cell of(String text) {
      return new Cell(text == null ? "" : text, null, null, null);
    }

    static Cell link(String text, String href) {
      return new Cell(text, href, null, null);
    }

    static Cell money(Double value) {
      return of(value == null ? "" : String.format(Locale.ENGLISH, "%,.2f", value));
    }

    static Cell styled(String text, String css) {
      return new Cell(text, null, css, null);
    }

    Cell withSvg(String drawing) {
      return new Cell(text, link, css, drawing);
    }
  }

  RiskTable withCsvHref(String href) {
    return new RiskTable(id, caption, columns, rows, href);
  }
}
