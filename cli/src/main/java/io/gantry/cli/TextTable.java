package io.gantry.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain left-aligned table with a header row, columns two spaces apart, as ps and kubectl print.
 */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  TextTable row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException(
          "a row of " + columns + " cells expected, not " + cells.length);
    }
    String[] text = new String[columns];
    for (int i = 0; i < columns; i++) {
      // SQL statements arrive as written, over several lines: one line per row here
      text[i] = cells[i] == null ? "-" : cells[i].toString().strip().replaceAll("\\s+", " ");
    }
    rows.add(text);
    return this;
  }

  /** The text cut to {@code max} characters, marked with an ellipsis where it was cut. */
  static String cut(String text, int max) {
    if (text == null) {
      return null;
    }
    String oneLine = text.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
  }

  int size() {
    return rows.size() - 1;
  }

  void print(PrintWriter out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
